package edge

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/apispec"
	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/libs/testkit"
)

func TestLargeValidBodiesAreRememberedAndInvalidOnesNever(t *testing.T) {
	v, err := apispec.NewValidator()
	if err != nil {
		t.Fatal(err)
	}
	g := &Gateway{Validator: v, Validated: NewValidatedBodies(100, 0)}
	op := apispec.Operation{ID: "organizerSearchEvents", HasBody: true}
	srv := httpserver.New(httpserver.Options{Log: testkit.Discard(), BodyLimit: 1 << 20, DisableTracing: true})
	srv.App.Post("/", func(c *fiber.Ctx) error {
		if err := g.validateBody(c, op, "", nil); err != nil {
			return err
		}
		return c.SendStatus(204)
	})
	post := func(body map[string]any) int {
		raw, _ := json.Marshal(body)
		req := httptest.NewRequest("POST", "/", strings.NewReader(string(raw)))
		req.Header.Set("Content-Type", "application/json")
		res, err := srv.App.Test(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	padding := strings.Repeat("x", rememberBodiesFrom) // an unknown property makes the body large
	invalid := map[string]any{"limit": 0, "padding": padding}
	valid := map[string]any{"limit": 5, "padding": padding}
	for range 2 {
		if got := post(invalid); got != 400 {
			t.Fatalf("invalid body: %d, want 400", got)
		}
	}
	if g.Validated.Len() != 0 {
		t.Fatal("an invalid body was remembered")
	}
	for range 2 {
		if got := post(valid); got != 204 {
			t.Fatalf("valid body: %d, want 204", got)
		}
	}
	if g.Validated.Len() != 1 {
		t.Fatalf("remembered %d bodies, want the one valid body", g.Validated.Len())
	}
	if got := post(map[string]any{"limit": 6, "padding": padding}); got != 204 || g.Validated.Len() != 2 {
		t.Fatalf("another valid body: %d, remembered %d", got, g.Validated.Len())
	}
}

// TestRememberedBodiesAreScopedToTheKeysCheck: a large body that passed the schema and one
// key's redirect check is not taken as passing another key's, and a refused one is never
// remembered.
func TestRememberedBodiesAreScopedToTheKeysCheck(t *testing.T) {
	v, err := apispec.NewValidator()
	if err != nil {
		t.Fatal(err)
	}
	g := &Gateway{Validator: v, Validated: NewValidatedBodies(100, 0)}
	op := apispec.Operation{ID: "organizerSearchEvents", HasBody: true}
	srv := httpserver.New(httpserver.Options{Log: testkit.Discard(), BodyLimit: 1 << 20, DisableTracing: true})
	srv.App.Post("/:key", func(c *fiber.Ctx) error {
		scope := c.Params("key")
		extra := func([]byte) error {
			if scope != "allowed" {
				return httpserver.BadRequest("successUrl must be on an allowed origin of the publishable key")
			}
			return nil
		}
		if err := g.validateBody(c, op, scope, extra); err != nil {
			return err
		}
		return c.SendStatus(204)
	})
	raw, _ := json.Marshal(map[string]any{"limit": 5, "padding": strings.Repeat("x", rememberBodiesFrom)})
	post := func(key string) int {
		req := httptest.NewRequest("POST", "/"+key, strings.NewReader(string(raw)))
		req.Header.Set("Content-Type", "application/json")
		res, err := srv.App.Test(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	for _, tc := range []struct {
		key        string
		status     int
		remembered int
	}{{"allowed", 204, 1}, {"other", 400, 1}, {"other", 400, 1}, {"allowed", 204, 1}} {
		if got := post(tc.key); got != tc.status || g.Validated.Len() != tc.remembered {
			t.Fatalf("key %s: %d with %d remembered, want %d with %d", tc.key, got, g.Validated.Len(), tc.status, tc.remembered)
		}
	}
}

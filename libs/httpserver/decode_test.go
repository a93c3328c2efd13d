package httpserver_test

import (
	"io"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/libs/testkit"
)

// TestDecodeJSONReadsIntegersInAnyNotation: the schema counts 7.0 and 7e0 as integers, so the
// services must too; fractions, numbers beyond 64 bits and bodies of another shape are refused.
func TestDecodeJSONReadsIntegersInAnyNotation(t *testing.T) {
	type body struct {
		Limit  *int64 `json:"limit"`
		Nested []struct {
			T int64   `json:"t"`
			X float64 `json:"x"`
		} `json:"nested"`
	}
	srv := httpserver.New(httpserver.Options{Log: testkit.Discard(), BodyLimit: 1 << 16, DisableTracing: true})
	srv.App.Post("/", func(c *fiber.Ctx) error {
		var b body
		if err := httpserver.DecodeJSON(c, &b); err != nil {
			return err
		}
		if b.Limit == nil || len(b.Nested) != 1 {
			return c.SendString("missing")
		}
		return c.SendString(strings.Join([]string{itoa(*b.Limit), itoa(b.Nested[0].T)}, " "))
	})
	cases := []struct {
		body, want string
		status     int
	}{
		{`{"limit": 7, "nested": [{"t": 300000, "x": 0.5}]}`, "7 300000", 200},
		{`{"limit": 7.0, "nested": [{"t": 3e5, "x": 1.0}]}`, "7 300000", 200},
		{`{"limit": 9007199254740991.00, "nested": [{"t": 1E1, "x": 0.25}]}`, "9007199254740991 10", 200},
		{`{"limit": 7.5, "nested": [{"t": 1, "x": 0}]}`, "", 400},
		{`{"limit": 1e400, "nested": [{"t": 1, "x": 0}]}`, "", 400},
		{`{"limit": 7.` + strings.Repeat("0", 100) + `, "nested": [{"t": 1, "x": 0}]}`, "", 400},
		{`{"limit": "7", "nested": [{"t": 1, "x": 0}]}`, "", 400},
		{`{"limit": 7.0, "nested": {}}`, "", 400},
		// PostgreSQL stores U+0000 in neither text nor jsonb; a backslash written out is not it.
		{`{"limit": 7, "nested": [{"t": 1, "x": 0}], "name": "a\u0000"}`, "", 400},
		{`{"limit": 7, "nested": [{"t": 1, "x": 0}], "\u0000": 1}`, "", 400},
		{`{"limit": 7, "nested": [{"t": 1, "x": 0}], "name": "\\\u0000"}`, "", 400},
		{`{"limit": 7, "nested": [{"t": 1, "x": 0}], "name": "\\u0000 u0000"}`, "7 1", 200},
	}
	for _, tc := range cases {
		req := httptest.NewRequest("POST", "/", strings.NewReader(tc.body))
		req.Header.Set("Content-Type", "application/json")
		res, err := srv.App.Test(req)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != tc.status || (tc.status == 200 && string(got) != tc.want) {
			t.Errorf("%s: %d %s, want %d %s", tc.body, res.StatusCode, got, tc.status, tc.want)
		}
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

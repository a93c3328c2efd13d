package admin_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/admin"
	"github.com/podiumhq/podium/libs/admin/command"
	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/httpserver"
)

const token = "operator-token-for-admin-tests-0123456789"

// widget is what the test admin API serves.
type widget struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// serve runs an admin API of the service "shop" on loopback until the test ends and returns
// its address: its widgets, an import that tells its result in a header, and refusals.
func serve(t *testing.T) string {
	t.Helper()
	s := httpserver.New(httpserver.Options{Log: slog.New(slog.NewTextHandler(io.Discard, nil)), BodyLimit: 1 << 20})
	ops := s.App.Group("/admin", admin.RequireOperator("shop", token))
	ops.Get("/widgets", func(c *fiber.Ctx) error {
		return c.JSON(fiber.Map{"data": []widget{{ID: "w1", Name: "Bolt\n2026 forged\x1b[2J"}}, "total": 3, "offset": 1})
	})
	ops.Put("/widgets/:id", func(c *fiber.Ctx) error {
		c.Set("Widget-Result", "created "+c.Params("id"))
		return c.JSON(widget{ID: c.Params("id"), Name: string(c.Body())})
	})
	ops.Post("/bad", func(*fiber.Ctx) error { return httpserver.BadRequest("a must be set", "b must be at most 3") })
	ops.Post("/taken", func(*fiber.Ctx) error { return fault.NewConflict("widget \"w1\x1b[2J\" is taken") })
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln, 5*time.Second) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	return "http://" + ln.Addr().String()
}

// TestRequireOperator: the admin routes answer only the operator token, as a bearer token;
// every refusal is a 401 in the standard error body with the service's realm.
func TestRequireOperator(t *testing.T) {
	url := serve(t)
	for name, c := range map[string]struct{ header, want string }{
		"none":         {"", "the admin API requires Authorization: Bearer <operator token>"},
		"basic":        {"Basic " + token, "the Authorization header must be Bearer <operator token>"},
		"no scheme":    {token, "the Authorization header must be Bearer <operator token>"},
		"wrong":        {"Bearer " + strings.Repeat("x", len(token)), "the operator token is invalid"},
		"prefix":       {"Bearer " + token[:10], "the operator token is invalid"},
		"longer":       {"Bearer " + token + "x", "the operator token is invalid"},
		"empty bearer": {"Bearer ", "the Authorization header must be Bearer <operator token>"},
		"any case":     {"bearer  " + token + " ", ""},
		"right":        {"Bearer " + token, ""},
	} {
		t.Run(name, func(t *testing.T) {
			req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, url+"/admin/widgets", nil)
			if err != nil {
				t.Fatal(err)
			}
			if c.header != "" {
				req.Header.Set("Authorization", c.header)
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			var body httpserver.Body
			if err := json.NewDecoder(res.Body).Decode(&body); err != nil {
				t.Fatal(err)
			}
			if c.want == "" {
				if res.StatusCode != http.StatusOK {
					t.Fatalf("status %d %+v, want 200", res.StatusCode, body)
				}
				return
			}
			if res.StatusCode != http.StatusUnauthorized || body.StatusCode != http.StatusUnauthorized || body.Message != c.want ||
				res.Header.Get("WWW-Authenticate") != `Bearer realm="podium-shop-admin"` {
				t.Fatalf("status %d %+v %q, want 401 %q with the shop realm", res.StatusCode, body, res.Header.Get("WWW-Authenticate"), c.want)
			}
		})
	}
}

func TestShowPrintsTheAnswerEscaped(t *testing.T) {
	c := admin.NewClient(serve(t), token, 5*time.Second)
	printWidgets := func(out io.Writer, l command.List[widget]) error {
		return command.PrintList(out, l, []string{"ID", "NAME"}, func(w widget) []string { return []string{w.ID, w.Name} })
	}
	var out bytes.Buffer
	if err := admin.Show(t.Context(), c, &out, false, http.MethodGet, "/admin/widgets", nil, printWidgets); err != nil {
		t.Fatal(err)
	}
	if want := "ID  NAME\nw1  \"Bolt\\n2026 forged\\x1b[2J\"\nTotal: 3 (showing 2-2)\n"; out.String() != want {
		t.Fatalf("table\n%q\nwant\n%q", out.String(), want)
	}
	out.Reset()
	if err := admin.Show(t.Context(), c, &out, true, http.MethodGet, "/admin/widgets", nil, printWidgets); err != nil {
		t.Fatal(err)
	}
	var l command.List[widget]
	if strings.Contains(out.String(), "\x1b") || json.Unmarshal(out.Bytes(), &l) != nil || l.Data[0].Name != "Bolt\n2026 forged\x1b[2J" ||
		!strings.HasPrefix(out.String(), "{\n  \"data\": [") {
		t.Fatalf("--json printed %q", out.String())
	}
}

// TestCallKeepsEachAnswersHeader: concurrent calls of one client each get their own answer's
// header.
func TestCallKeepsEachAnswersHeader(t *testing.T) {
	c := admin.NewClient(serve(t), token, 5*time.Second)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := range 8 {
		wg.Go(func() {
			id := fmt.Sprintf("w%d", i)
			a, err := c.Call(t.Context(), http.MethodPut, "/admin/widgets/"+id, "body")
			var w widget
			switch {
			case err != nil:
				errs <- err
			case a.Header.Get("Widget-Result") != "created "+id || json.Unmarshal(a.Body, &w) != nil || w.ID != id || w.Name != `"body"`:
				errs <- fmt.Errorf("call %s answered %q %s", id, a.Header.Get("Widget-Result"), a.Body)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestExplain(t *testing.T) {
	url := serve(t)
	call := func(token, method, path string) error {
		_, err := admin.NewClient(url, token, 5*time.Second).Call(t.Context(), method, path, nil)
		return err
	}
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closedURL := "http://" + closed.Addr().String()
	closed.Close()
	_, unreachable := admin.NewClient(closedURL, token, 5*time.Second).Call(t.Context(), http.MethodGet, "/admin/widgets", nil)

	for name, c := range map[string]struct {
		err  error
		want string
	}{
		"wrong token": {call("wrong", http.MethodGet, "/admin/widgets"), "admin API GET /admin/widgets answered 401: the operator token is invalid"},
		"bad request": {call(token, http.MethodPost, "/admin/bad"), "admin API POST /admin/bad answered 400: a must be set; b must be at most 3"},
		"conflict":    {call(token, http.MethodPost, "/admin/taken"), `"admin API POST /admin/taken answered 409: widget \"w1\x1b[2J\" is taken"`},
		"bad input": {admin.BadInput("the widget file", fault.NewInvalid("name must be set", "id \x1b[2J")),
			"the widget file has problems:\n  name must be set\n  \"id \\x1b[2J\""},
		"other": {errors.New("read widget file: no such file"), "read widget file: no such file"},
	} {
		if got := admin.Explain(c.err); got != c.want {
			t.Errorf("%s: %q, want %q", name, got, c.want)
		}
	}
	if got := admin.Explain(unreachable); !strings.HasPrefix(got, "the admin API is unavailable: GET /admin/widgets: ") || !strings.Contains(got, "connection refused") {
		t.Errorf("unreachable: %q", got)
	}
	if !errors.Is(admin.BadInput("the widget file", fault.NewInvalid("x")), fault.ErrInvalid) {
		t.Error("BadInput hides the failure's category")
	}
	if plain := errors.New("x"); admin.BadInput("the widget file", plain) != plain { //nolint:errorlint // the very error, unwrapped
		t.Error("BadInput changed an error without problems")
	}
}

// TestOperator: the commands read the admin API's address and token from the service's
// environment, the address defaulting, and run under the resource they were given.
func TestOperator(t *testing.T) {
	url := serve(t)
	list := command.Set[*admin.Client]{"widgets list": func(ctx context.Context, c *admin.Client, args []string, out io.Writer) error {
		a, err := c.Call(ctx, http.MethodGet, "/admin/widgets", nil)
		if err == nil {
			_, err = fmt.Fprintf(out, "%d bytes %v", len(a.Body), args)
		}
		return err
	}}
	var out bytes.Buffer
	t.Setenv("SHOP_OPERATOR_TOKEN", token)
	t.Setenv("SHOP_ADMIN_URL", "")
	if err := admin.Operator("shop", url, list)("widgets")(t.Context(), []string{"list"}, &out); err != nil || !strings.HasSuffix(out.String(), " bytes []") {
		t.Fatalf("at the default address: %v %q", err, out.String())
	}
	t.Setenv("SHOP_ADMIN_URL", url)
	if err := admin.Operator("shop", "http://127.0.0.1:1", list)("widgets")(t.Context(), []string{"list"}, &out); err != nil {
		t.Fatalf("at SHOP_ADMIN_URL: %v", err)
	}
	if err := admin.Operator("shop", url, list)("gadgets")(t.Context(), []string{"list"}, &out); !errors.Is(err, command.ErrUsage) {
		t.Fatalf("an unknown resource: %v, want a usage error", err)
	}
	t.Setenv("SHOP_OPERATOR_TOKEN", "")
	if _, err := admin.FromEnv("shop", url); err == nil || !strings.Contains(err.Error(), "SHOP_OPERATOR_TOKEN is required") {
		t.Fatalf("without a token: %v", err)
	}
}

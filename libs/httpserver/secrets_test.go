package httpserver_test

import (
	"bytes"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/gofiber/fiber/v2"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/libs/logging"
	"github.com/podiumhq/podium/libs/testkit"
)

// TestSpansAndLogsNeverCarryAPathsSecret: a sign-in link's token travels in its path; whoever
// reads traces or logs must not be able to use it. Spans name the route's template, and neither
// they nor the request log hold the path or the query.
func TestSpansAndLogsNeverCarryAPathsSecret(t *testing.T) {
	_, spans := testkit.Tracing(t)
	var logs bytes.Buffer
	srv := httpserver.New(httpserver.Options{Log: logging.NewTo(&logs, "test", "debug"), BodyLimit: 1024})
	srv.App.Get("/signin/:token", func(c *fiber.Ctx) error { return c.SendString("confirm") })
	srv.App.Post("/signin/:token", func(c *fiber.Ctx) error { return c.Redirect("/", http.StatusSeeOther) })
	srv.App.Get("/links/:token", func(*fiber.Ctx) error { return errors.New("the link store broke") })
	url := serve(t, srv)

	const token = "Zt5qK2mW9xR4vB7nL1cP8sD3fG6hJ0aY"
	for _, r := range []struct {
		method, path string
		status       int
	}{
		{http.MethodGet, "/signin/" + token + "?again=" + token, http.StatusOK},
		{http.MethodPost, "/signin/" + token, http.StatusSeeOther},
		{http.MethodGet, "/links/" + token, http.StatusInternalServerError},
		{http.MethodGet, "/nowhere/" + token, http.StatusNotFound},
	} {
		req, _ := http.NewRequestWithContext(t.Context(), r.method, url+r.path, nil)
		client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != r.status {
			t.Fatalf("%s %s: %d, want %d", r.method, r.path, res.StatusCode, r.status)
		}
	}

	ended := spans.Ended()
	routes := map[string]bool{}
	for _, s := range ended {
		for _, text := range spanTexts(s) {
			if strings.Contains(text, token) {
				t.Errorf("span %q carries the token: %q", s.Name(), text)
			}
		}
		for _, a := range s.Attributes() {
			if a.Key == "http.route" {
				routes[a.Value.AsString()] = true
			}
		}
	}
	if len(ended) != 4 || !routes["/signin/:token"] || !routes["/links/:token"] {
		t.Fatalf("%d spans with routes %v, want 4 naming /signin/:token and /links/:token", len(ended), routes)
	}
	if !strings.Contains(logs.String(), `"route":"/links/:token"`) {
		t.Fatalf("the failed request is not logged with its route: %s", logs.String())
	}
	if strings.Contains(logs.String(), token) {
		t.Fatalf("the logs carry the token: %s", logs.String())
	}
}

// spanTexts returns every text a span exports: its name, attribute values, status, events and
// links' attributes.
func spanTexts(s sdktrace.ReadOnlySpan) []string {
	out := []string{s.Name(), s.Status().Description}
	for _, a := range s.Attributes() {
		out = append(out, string(a.Key)+"="+a.Value.String())
	}
	for _, e := range s.Events() {
		out = append(out, e.Name)
		for _, a := range e.Attributes {
			out = append(out, string(a.Key)+"="+a.Value.String())
		}
	}
	for _, l := range s.Links() {
		for _, a := range l.Attributes {
			out = append(out, string(a.Key)+"="+a.Value.String())
		}
	}
	return out
}

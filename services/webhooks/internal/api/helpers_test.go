package api_test

import (
	"net/http"
	"os"
	"testing"

	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/webhooks/internal/api"
	"github.com/podiumhq/podium/services/webhooks/internal/webhookstest"
)

// Every test passes through the internal routes too, so the run checks every operation of the
// internal contract.
func TestMain(m *testing.M) { os.Exit(webhookstest.InternalAPI.Run(m)) }

// mount is one of the two places the handlers serve.
type mount struct {
	name  string
	base  string
	token func(t testing.TB, e *webhookstest.Env, org string) string
}

var mounts = []mount{
	{"external", api.ExternalBase, func(t testing.TB, e *webhookstest.Env, org string) string { return e.Secret(t, org) }},
	{"console", api.InternalBase, func(t testing.TB, e *webhookstest.Env, org string) string { return e.Console(t, org) }},
}

// client sends requests to one mount as one organization.
type client struct {
	t   testing.TB
	e   *webhookstest.Env
	m   mount
	org string
}

func (c client) do(method, path string, body any) testkit.Response {
	c.t.Helper()
	return c.e.Do(c.t, method, c.m.base+path, body, c.m.token(c.t, c.e, c.org))
}

// create makes an endpoint subscribed to types and returns its answer.
func (c client) create(url string, types ...string) testkit.Response {
	c.t.Helper()
	r := c.do(http.MethodPost, "", map[string]any{"url": url, "eventTypes": types})
	if r.Status != http.StatusCreated {
		c.t.Fatalf("create: %d %s", r.Status, r.Raw)
	}
	return r
}

func each(t *testing.T, fn func(t *testing.T, c func(e *webhookstest.Env, org string) client)) {
	for _, m := range mounts {
		t.Run(m.name, func(t *testing.T) {
			fn(t, func(e *webhookstest.Env, org string) client { return client{t: t, e: e, m: m, org: org} })
		})
	}
}

// problems returns the messages of a 400's problems.
func problems(t testing.TB, r testkit.Response) []string {
	t.Helper()
	if r.Status != http.StatusBadRequest {
		t.Fatalf("status %d, want 400: %s", r.Status, r.Raw)
	}
	list, _ := r.Body["problems"].([]any)
	out := make([]string, len(list))
	for i, p := range list {
		out[i], _ = p.(map[string]any)["message"].(string)
	}
	return out
}

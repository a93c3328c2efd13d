package api_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/webhooks/internal/api"
	"github.com/podiumhq/podium/services/webhooks/internal/domain"
	"github.com/podiumhq/podium/services/webhooks/internal/webhookstest"
)

const (
	orgA = "org_A1b2C3d4E5f6G7h8I9j0"
	orgB = "org_B1b2C3d4E5f6G7h8I9j0"
)

func TestEndpointLifecycle(t *testing.T) {
	each(t, func(t *testing.T, as func(*webhookstest.Env, string) client) {
		e := webhookstest.Start(t, webhookstest.Options{})
		at := time.Date(2026, 5, 9, 18, 0, 0, 0, time.UTC)
		e.Clock.Set(at)
		c := as(e, orgA)
		created := c.do(http.MethodPost, "", map[string]any{"url": "https://hooks.example.com/podium",
			"eventTypes": []string{domain.OrderCompleted, domain.OrderCompleted, domain.RegistrationCreated}, "description": "Shop"})
		id, _ := created.Body["id"].(string)
		secret, _ := created.Body["secret"].(string)
		if created.Status != http.StatusCreated || !strings.HasPrefix(id, "we_") || !strings.HasPrefix(secret, "whsec_") ||
			created.Body["status"] != "enabled" || created.Body["disabledReason"] != nil || created.Body["livemode"] != true ||
			len(created.Body["eventTypes"].([]any)) != 2 || created.Body["description"] != "Shop" {
			t.Fatalf("create: %d %s", created.Status, created.Raw)
		}
		if got := sealedSecrets(t, e, id); len(got) != 1 || got[0] != secret {
			t.Fatalf("stored secrets %v, want the one answered", got)
		}

		got := c.do(http.MethodGet, "/"+id, nil)
		if got.Status != http.StatusOK || got.Body["secret"] != nil || got.Body["url"] != "https://hooks.example.com/podium" {
			t.Fatalf("get: %d %s", got.Status, got.Raw)
		}
		e.Clock.Set(at.Add(time.Second))
		c.create("https://hooks.example.com/second", domain.PricingChanged)
		list := c.do(http.MethodGet, "?limit=1&offset=1", nil)
		if data, _ := list.Body["data"].([]any); list.Status != http.StatusOK || len(data) != 1 || list.Body["total"] != 2.0 ||
			list.Body["limit"] != 1.0 || list.Body["offset"] != 1.0 || data[0].(map[string]any)["id"] != id {
			t.Fatalf("list: %d %s", list.Status, list.Raw)
		}

		e.Clock.Set(at.Add(time.Hour))
		off := c.do(http.MethodPatch, "/"+id, map[string]any{"enabled": false, "description": "Paused", "eventTypes": []string{domain.OrderRefunded}})
		if off.Status != http.StatusOK || off.Body["status"] != "disabled" || off.Body["disabledReason"] != "organizer" ||
			off.Body["disabledAt"] != "2026-05-09T19:00:00Z" || off.Body["description"] != "Paused" || off.Body["updatedAt"] != "2026-05-09T19:00:00Z" {
			t.Fatalf("disable: %d %s", off.Status, off.Raw)
		}
		on := c.do(http.MethodPatch, "/"+id, map[string]any{"enabled": true, "url": "https://hooks.example.com/v2"})
		if on.Status != http.StatusOK || on.Body["status"] != "enabled" || on.Body["disabledReason"] != nil || on.Body["disabledAt"] != nil ||
			on.Body["url"] != "https://hooks.example.com/v2" {
			t.Fatalf("enable: %d %s", on.Status, on.Raw)
		}

		rotated := c.do(http.MethodPost, "/"+id+"/rotate-secret", nil)
		next, _ := rotated.Body["secret"].(string)
		if rotated.Status != http.StatusOK || !strings.HasPrefix(next, "whsec_") || next == secret ||
			rotated.Body["previousSecretExpiresAt"] != "2026-05-10T19:00:00Z" {
			t.Fatalf("rotate: %d %s", rotated.Status, rotated.Raw)
		}
		var expires []*time.Time
		rows, err := e.Pool.Query(context.Background(), `SELECT expires_at FROM endpoint_secrets WHERE endpoint_id = $1 ORDER BY created_at`, id)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var x *time.Time
			if err := rows.Scan(&x); err != nil {
				t.Fatal(err)
			}
			expires = append(expires, x)
		}
		if len(expires) != 2 || expires[0] == nil || !expires[0].Equal(at.Add(25*time.Hour)) || expires[1] != nil {
			t.Fatalf("secrets' expiries %v, want the old one at +24h and the new one current", expires)
		}
		if got := sealedSecrets(t, e, id); got[0] != secret || got[1] != next {
			t.Fatal("the rotated secrets are not the ones answered")
		}

		e.Clock.Set(at.Add(2 * time.Hour))
		again := c.do(http.MethodPost, "/"+id+"/rotate-secret", nil)
		if again.Status != http.StatusOK || again.Body["previousSecretExpiresAt"] != "2026-05-10T20:00:00Z" {
			t.Fatalf("rotate again: %d %s", again.Status, again.Raw)
		}
		if live := liveSecrets(t, e, id, at.Add(2*time.Hour)); len(live) != 2 || live[0] != next || live[1] != again.Body["secret"] {
			t.Fatalf("live secrets after a second rotation %v: the first secret must stop at once", live)
		}

		deleted := c.do(http.MethodDelete, "/"+id, nil)
		if deleted.Status != http.StatusOK || deleted.Body["status"] != "enabled" || deleted.Body["id"] != id {
			t.Fatalf("delete: %d %s", deleted.Status, deleted.Raw)
		}
		if r := c.do(http.MethodGet, "/"+id, nil); r.Status != http.StatusNotFound {
			t.Fatalf("get after delete: %d", r.Status)
		}
		if got := sealedSecrets(t, e, id); len(got) != 0 {
			t.Fatal("secrets outlived their endpoint")
		}
	})
}

// liveSecrets opens the secrets of an endpoint that sign at now, oldest first.
func liveSecrets(t *testing.T, e *webhookstest.Env, id string, now time.Time) []string {
	t.Helper()
	return openSecrets(t, e, id, `SELECT sealed FROM endpoint_secrets WHERE endpoint_id = $1
		AND (expires_at IS NULL OR expires_at > $2) ORDER BY created_at`, now)
}

// sealedSecrets opens the stored secrets of an endpoint, oldest first.
func sealedSecrets(t *testing.T, e *webhookstest.Env, id string) []string {
	t.Helper()
	return openSecrets(t, e, id, `SELECT sealed FROM endpoint_secrets WHERE endpoint_id = $1 ORDER BY created_at`)
}

// openSecrets opens the sealed secrets of endpoint ($1) that query reads.
func openSecrets(t *testing.T, e *webhookstest.Env, endpoint, query string, args ...any) []string {
	t.Helper()
	rows, err := e.Pool.Query(context.Background(), query, append([]any{endpoint}, args...)...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var sealed []byte
		if err := rows.Scan(&sealed); err != nil {
			t.Fatal(err)
		}
		s, err := e.Sealer.Open(endpoint, sealed)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

func TestEndpointLimitPerOrganization(t *testing.T) {
	e := webhookstest.Start(t, webhookstest.Options{MaxEndpoints: 2})
	c := client{t: t, e: e, m: mounts[0], org: orgA}
	c.create("https://a.example.com/", domain.OrderCompleted)
	c.create("https://b.example.com/", domain.OrderCompleted)
	if r := c.do(http.MethodPost, "", map[string]any{"url": "https://c.example.com/", "eventTypes": []string{domain.OrderCompleted}}); r.Status != http.StatusConflict ||
		r.Body["code"] != domain.CodeEndpointLimit {
		t.Fatalf("third endpoint: %d %s", r.Status, r.Raw)
	}
	(client{t: t, e: e, m: mounts[0], org: orgB}).create("https://c.example.com/", domain.OrderCompleted)
}

func TestBodiesAndQueriesAreChecked(t *testing.T) {
	each(t, func(t *testing.T, as func(*webhookstest.Env, string) client) {
		e := webhookstest.Start(t, webhookstest.Options{})
		c := as(e, orgA)
		id := c.create("https://hooks.example.com/", domain.OrderCompleted).Body["id"].(string)
		for name, tc := range map[string]struct {
			method, path string
			body         any
			want         []string
		}{
			"not an object":   {http.MethodPost, "", `[1]`, nil},
			"no body":         {http.MethodPost, "", "", []string{"body is required: send a JSON object"}},
			"no recover body": {http.MethodPost, "/" + id + "/recover", "", []string{"body is required: send a JSON object"}},
			"required":        {http.MethodPost, "", map[string]any{}, []string{"eventTypes is required", "url is required"}},
			"wrong types":     {http.MethodPost, "", map[string]any{"url": 1, "eventTypes": "order.completed"}, []string{"eventTypes must be an array", "url must be a string"}},
			"http":            {http.MethodPost, "", map[string]any{"url": "http://hooks.example.com/", "eventTypes": []string{"order.completed"}}, []string{"url must be an https URL"}},
			"private":         {http.MethodPost, "", map[string]any{"url": "https://10.1.2.3/", "eventTypes": []string{"order.completed"}}, []string{"url must not address"}},
			"unknown type":    {http.MethodPatch, "/" + id, map[string]any{"eventTypes": []string{"order.shipped"}}, []string{"eventTypes[0] must be one of"}},
			"no types":        {http.MethodPatch, "/" + id, map[string]any{"eventTypes": []string{}}, []string{"eventTypes must have at least 1 item"}},
			"enabled":         {http.MethodPatch, "/" + id, map[string]any{"enabled": "yes"}, []string{"enabled must be a boolean"}},
			"recover":         {http.MethodPost, "/" + id + "/recover", map[string]any{}, []string{"since is required"}},
			"recover time":    {http.MethodPost, "/" + id + "/recover", map[string]any{"since": "yesterday"}, []string{"since must be an RFC 3339 date-time"}},
			"recover future":  {http.MethodPost, "/" + id + "/recover", map[string]any{"since": "2999-01-01T00:00:00Z"}, []string{"since must not be in the future"}},
			"limit":           {http.MethodGet, "?limit=101", nil, []string{"limit must be an integer from 1 to 100"}},
			"offset":          {http.MethodGet, "/" + id + "/deliveries?offset=-1", nil, []string{"offset must be an integer from 0 to 1000000"}},
			"delivery status": {http.MethodGet, "/" + id + "/deliveries?status=lost", nil, []string{"status must be one of pending, succeeded, failed"}},
		} {
			t.Run(name, func(t *testing.T) {
				r := c.do(tc.method, tc.path, tc.body)
				got := problems(t, r)
				if tc.want == nil {
					if r.Body["message"] == nil {
						t.Fatalf("no standard error body: %s", r.Raw)
					}
					return
				}
				if len(got) != len(tc.want) {
					t.Fatalf("problems %q, want %q", got, tc.want)
				}
				for i := range got {
					if !strings.HasPrefix(got[i], tc.want[i]) {
						t.Fatalf("problems %q, want %q", got, tc.want)
					}
				}
			})
		}
	})
}

// Members a route does not read are ignored, as the OpenAPI document allows; an operation that
// takes no body refuses one, as the gateway does.
func TestUnknownMembersAndBodiesNotTaken(t *testing.T) {
	each(t, func(t *testing.T, as func(*webhookstest.Env, string) client) {
		e := webhookstest.Start(t, webhookstest.Options{})
		c := as(e, orgA)
		r := c.do(http.MethodPost, "", map[string]any{"url": "https://h.example/", "eventTypes": []string{domain.OrderCompleted}, "secret": "mine", "enabled": false})
		if r.Status != http.StatusCreated || r.Body["secret"] == "mine" || r.Body["status"] != "enabled" {
			t.Fatalf("create with unknown members: %d %s", r.Status, r.Raw)
		}
		id := r.Body["id"].(string)
		if r := c.do(http.MethodPatch, "/"+id, ""); r.Status != http.StatusOK {
			t.Fatalf("update without a body: %d %s", r.Status, r.Raw)
		}
		for _, path := range []string{"/rotate-secret", "/test"} {
			if r := c.do(http.MethodPost, "/"+id+path, map[string]any{}); r.Status != http.StatusRequestEntityTooLarge || r.Body["code"] != "body_too_large" {
				t.Fatalf("%s with a body: %d %s", path, r.Status, r.Raw)
			}
		}
	})
}

func TestCallersAndScopes(t *testing.T) {
	e := webhookstest.Start(t, webhookstest.Options{})
	ext, console := mounts[0].base, mounts[1].base
	for name, tc := range map[string]struct {
		path, token string
		want        int
	}{
		"no token":            {ext, "", http.StatusUnauthorized},
		"console on external": {ext, e.Console(t, orgA), http.StatusForbidden},
		"gateway on console":  {console, e.Secret(t, orgA), http.StatusForbidden},
		"publishable key": {ext, e.Issuers.Token(t, identity.Gateway, identity.Webhooks, identity.Principal{
			OrganizerID: orgA, KeyID: "key_pk", KeyType: identity.Publishable, Scopes: []string{api.ScopeWrite}}), http.StatusForbidden},
		"no scope": {ext, e.Issuers.Token(t, identity.Gateway, identity.Webhooks, identity.Principal{
			OrganizerID: orgA, KeyID: "key_sk", KeyType: identity.Secret, Scopes: []string{"registrations:read"}}), http.StatusForbidden},
		"no organizer": {console, e.Issuers.Token(t, identity.Auth, identity.Webhooks, identity.Principal{KeyID: "console", KeyType: identity.Service}), http.StatusForbidden},
	} {
		if r := e.Do(t, http.MethodGet, tc.path, nil, tc.token); r.Status != tc.want {
			t.Errorf("%s: %d, want %d", name, r.Status, tc.want)
		}
	}
}

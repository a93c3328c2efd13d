package edge

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/podiumhq/podium/libs/apikey"
	"github.com/podiumhq/podium/libs/apispec"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/gateway/internal/keys"
)

// webhookCalls are requests to every webhook endpoint operation, with a valid body where the
// operation takes one.
var webhookCalls = []call{
	{method: "POST", path: "/organizer/webhook-endpoints", body: `{"url":"https://hooks.example.com/podium","eventTypes":["order.completed"]}`},
	{method: "GET", path: "/organizer/webhook-endpoints?limit=10&offset=20"},
	{method: "GET", path: "/organizer/webhook-endpoints/we_1"},
	{method: "PATCH", path: "/organizer/webhook-endpoints/we_1", body: `{"enabled":false}`},
	{method: "DELETE", path: "/organizer/webhook-endpoints/we_1"},
	{method: "POST", path: "/organizer/webhook-endpoints/we_1/rotate-secret"},
	{method: "POST", path: "/organizer/webhook-endpoints/we_1/test"},
	{method: "GET", path: "/organizer/webhook-endpoints/we_1/deliveries?status=failed&limit=5"},
	{method: "GET", path: "/organizer/webhook-endpoints/we_1/deliveries/wd_1"},
	{method: "POST", path: "/organizer/webhook-endpoints/we_1/deliveries/wd_1/retry"},
	{method: "POST", path: "/organizer/webhook-endpoints/we_1/recover", body: `{"since":"2026-05-09T16:00:00Z"}`},
}

// TestWebhookEndpointsGoToTheWebhooksService: every operation under
// /organizer/webhook-endpoints needs the scope webhooks:write, and a secret key with it reaches
// the webhooks service, with its path and query as sent and the key's organizer in a token
// addressed to webhooks.
func TestWebhookEndpointsGoToTheWebhooksService(t *testing.T) {
	var ids []string
	for _, op := range apispec.Operations() {
		if strings.HasPrefix(op.Path, "/organizer/webhook-endpoints") {
			ids = append(ids, op.ID)
			if op.Scope != "webhooks:write" || owners[op.ID] != Webhooks {
				t.Errorf("%s: scope %q, owner %q; want webhooks:write and %s", op.ID, op.Scope, owners[op.ID], Webhooks)
			}
		}
	}
	if len(ids) != len(webhookCalls) {
		t.Fatalf("the document has %d webhook endpoint operations %v, the test calls %d", len(ids), ids, len(webhookCalls))
	}
	h := newHarness(t, Limits{})
	org := h.auth.keys[apikey.Hash(h.secret)].OrganizerID
	for i, c := range webhookCalls {
		c.addr, c.headers = newAddr(), map[string]string{"Authorization": "Bearer " + h.secret}
		wantStatus(t, h.do(t, c), http.StatusOK, "")
		got := h.owner.requests()
		if len(got) != i+1 {
			t.Fatalf("%s %s: the owner received %d requests, want %d", c.method, c.path, len(got), i+1)
		}
		r := got[i]
		path, query, _ := strings.Cut(c.path, "?")
		if r.path != BasePath+path || r.query != query || r.audience != Webhooks {
			t.Errorf("%s %s reached %s as %s?%s", c.method, c.path, r.audience, r.path, r.query)
		}
		p := r.principal
		if p.OrganizerID != org || p.KeyType != identity.Secret || !slices.Contains(p.Scopes, "webhooks:write") {
			t.Errorf("%s %s: principal %+v", c.method, c.path, p)
		}
	}
}

// TestWebhookEndpointsRefuseOtherKeys: without a key (401), with a publishable key (403
// key_wrong_surface) or with a secret key of every other scope (403 scope_missing), no
// webhook endpoint operation reaches the owner.
func TestWebhookEndpointsRefuseOtherKeys(t *testing.T) {
	h := newHarness(t, Limits{})
	narrow, err := apikey.Generate(apikey.Secret, apikey.Live)
	if err != nil {
		t.Fatal(err)
	}
	scopes := slices.DeleteFunc(allScopes(), func(s string) bool { return s == "webhooks:write" })
	h.auth.mu.Lock()
	h.auth.keys[apikey.Hash(narrow)] = keys.Key{ID: "key_" + randomHex(6), OrganizerID: "org_1", Type: apikey.Secret, Scopes: scopes}
	h.auth.mu.Unlock()
	for _, c := range webhookCalls {
		for _, refusal := range []struct {
			headers map[string]string
			status  int
			says    string
		}{
			{nil, http.StatusUnauthorized, "missing API key"},
			{map[string]string{"X-Publishable-Key": h.key}, http.StatusForbidden, "publishable keys work only"},
			{map[string]string{"Authorization": "Bearer " + narrow}, http.StatusForbidden, "lacks the webhooks:write scope"},
			{map[string]string{"X-Api-Key": narrow}, http.StatusForbidden, "lacks the webhooks:write scope"},
		} {
			c.addr, c.headers = newAddr(), refusal.headers
			wantStatus(t, h.do(t, c), refusal.status, refusal.says)
		}
	}
	if got := h.owner.requests(); len(got) != 0 {
		t.Fatalf("refused requests reached the owner: %+v", got)
	}
}

// TestWebhookEndpointBodiesAreBounded: a body over the operation's limit, or any body on an
// action that takes none, is refused with 413 before the key is looked at; a body against the
// schema is refused with 400 after it.
func TestWebhookEndpointBodiesAreBounded(t *testing.T) {
	h := newHarness(t, Limits{})
	auth := map[string]string{"Authorization": "Bearer " + h.secret}
	create := operation(t, "organizerCreateWebhookEndpoint")
	res := h.do(t, call{method: "POST", path: "/organizer/webhook-endpoints", addr: newAddr(), headers: auth,
		body: padded(`{"url":"https://hooks.example.com/podium","eventTypes":["ping"]}`, create.MaxBodyBytes+1)})
	wantStatus(t, res, http.StatusRequestEntityTooLarge, "accepts at most "+strconv.Itoa(create.MaxBodyBytes)+" bytes")
	res = h.do(t, call{method: "POST", path: "/organizer/webhook-endpoints/we_1/rotate-secret", addr: newAddr(), headers: auth, body: "{}"})
	wantStatus(t, res, http.StatusRequestEntityTooLarge, "takes no body")
	if n := h.auth.lookups.Load(); n != 0 {
		t.Fatalf("%d key lookups for refused bodies", n)
	}
	res = h.do(t, call{method: "POST", path: "/organizer/webhook-endpoints", addr: newAddr(), headers: auth,
		body: `{"url":"https://hooks.example.com/podium","eventTypes":["ping"]}`})
	wantStatus(t, res, http.StatusBadRequest, "")
	if !strings.Contains(string(res.body), "eventTypes[0] must be one of") {
		t.Fatalf("a ping subscription: %s", res.body)
	}
	if got := h.owner.requests(); len(got) != 0 {
		t.Fatalf("refused requests reached the owner: %+v", got)
	}
}

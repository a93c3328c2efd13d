package e2e

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/podiumhq/podium/system/stack"
)

// webhookRoute is one route of the webhook endpoints API with the ids it is called with.
type webhookRoute struct {
	op     string
	method string
	url    string
	body   any
	// message is what a 404 names.
	message string
}

// webhookRoutes are every route of the API that takes an id, on the endpoint and delivery
// given.
func webhookRoutes(endpointID, deliveryID string) []webhookRoute {
	const noEndpoint, noDelivery = "webhook endpoint not found", "delivery not found"
	since := map[string]any{"since": time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)}
	return []webhookRoute{
		{"organizerGetWebhookEndpoint", "GET", endpoints(endpointID), nil, noEndpoint},
		{"organizerUpdateWebhookEndpoint", "PATCH", endpoints(endpointID), map[string]any{"description": "taken over", "enabled": false}, noEndpoint},
		{"organizerDeleteWebhookEndpoint", "DELETE", endpoints(endpointID), nil, noEndpoint},
		{"organizerRotateWebhookEndpointSecret", "POST", endpoints(endpointID, "rotate-secret"), nil, noEndpoint},
		{"organizerTestWebhookEndpoint", "POST", endpoints(endpointID, "test"), nil, noEndpoint},
		{"organizerRecoverWebhookDeliveries", "POST", endpoints(endpointID, "recover"), since, noEndpoint},
		{"organizerListWebhookDeliveries", "GET", endpoints(endpointID, "deliveries"), nil, noEndpoint},
		{"organizerGetWebhookDelivery", "GET", endpoints(endpointID, "deliveries", deliveryID), nil, noEndpoint},
		{"organizerRetryWebhookDelivery", "POST", endpoints(endpointID, "deliveries", deliveryID, "retry"), nil, noEndpoint},
	}
}

// TestAnotherOrganizersWebhookIdsAreNotFound: organizer B's key with organizer A's endpoint
// and delivery ids, on every route, answers 404 exactly as an unknown id does, and changes
// nothing of A's; A's delivery under B's own endpoint is not found either; each list shows
// only its organizer's endpoints.
func TestAnotherOrganizersWebhookIdsAreNotFound(t *testing.T) {
	a, b := newTenant(t), newTenant(t)
	rA, epA := startReceiver(t, a.secret.Key)
	_, epB := startReceiver(t, b.secret.Key)
	dA := sendPing(t, a.secret.Key, epA.ID)
	wantDelivery(t, a.secret.Key, epA.ID, dA.ID, 1)

	unknown := webhookRoutes("we_unknown", "wd_unknown")
	for i, route := range webhookRoutes(epA.ID, dA.ID) {
		t.Run(route.op, func(t *testing.T) {
			res := send(t, req{route.method, route.url, secret(b.secret.Key), route.body})
			wantError(t, res, 404, route.message)
			conforms(t, route.op, res)
			wantNoTrace(t, res, epA)
			u := unknown[i]
			if other := send(t, req{u.method, u.url, secret(b.secret.Key), u.body}); other.status != 404 || errorMessage(t, other) != errorMessage(t, res) {
				t.Fatalf("A's ids answered %s, an unknown id %d %s", res.body, other.status, other.body)
			}
		})
	}
	for _, route := range []webhookRoute{
		{"organizerGetWebhookDelivery", "GET", endpoints(epB.ID, "deliveries", dA.ID), nil, "delivery not found"},
		{"organizerRetryWebhookDelivery", "POST", endpoints(epB.ID, "deliveries", dA.ID, "retry"), nil, "delivery not found"},
	} {
		t.Run(route.op+" under B's endpoint", func(t *testing.T) {
			res := send(t, req{route.method, route.url, secret(b.secret.Key), route.body})
			wantError(t, res, 404, route.message)
			conforms(t, route.op, res)
			wantNoTrace(t, res, epA)
		})
	}

	t.Run("each list shows its own endpoints", func(t *testing.T) {
		for _, c := range []struct {
			key  string
			want string
		}{{a.secret.Key, epA.ID}, {b.secret.Key, epB.ID}} {
			res := send(t, req{"GET", endpoints(), secret(c.key), nil})
			var list page[webhookEndpoint]
			decodeOK(t, res, 200, "organizerListWebhookEndpoints", &list)
			if list.Total != 1 || len(list.Data) != 1 || list.Data[0].ID != c.want || list.Data[0].Secret != "" {
				t.Fatalf("list %s, want only %s, without its secret", res.body, c.want)
			}
		}
	})
	t.Run("A's endpoint is untouched", func(t *testing.T) {
		res := send(t, req{"GET", endpoints(epA.ID), secret(a.secret.Key), nil})
		var got webhookEndpoint
		decodeOK(t, res, 200, "organizerGetWebhookEndpoint", &got)
		if got.Status != "enabled" || strings.Contains(string(res.body), "taken over") {
			t.Fatalf("A's endpoint after B's calls: %s", res.body)
		}
		res = send(t, req{"GET", endpoints(epA.ID, "deliveries"), secret(a.secret.Key), nil})
		var list page[webhookDelivery]
		decodeOK(t, res, 200, "organizerListWebhookDeliveries", &list)
		if list.Total != 1 || list.Data[0].ID != dA.ID || list.Data[0].Attempts != 1 {
			t.Fatalf("A's deliveries after B's calls: %s, want only the first ping, sent once", res.body)
		}
		// Still signed with A's one secret: B's rotate did not happen.
		after := sendPing(t, a.secret.Key, epA.ID)
		if w, _ := waitMessage(t, rA, after.MessageID); len(signatures(w.Header.Get("webhook-signature"))) != 1 {
			t.Fatalf("A's ping signed %q, want A's one secret", w.Header.Get("webhook-signature"))
		}
	})
}

// TestWebhookRoutesNeedTheScopeAndASecretKey: a secret key without webhooks:write is refused
// with scope_missing on every route, the organizer's own ids included; a publishable key is
// refused however it is sent.
func TestWebhookRoutesNeedTheScopeAndASecretKey(t *testing.T) {
	o := newTenant(t)
	_, ep := startReceiver(t, o.secret.Key)
	d := sendPing(t, o.secret.Key, ep.ID)
	narrow := newKey(t, o.org, stack.KeySpec{Type: "secret", Scopes: []string{"events:read", "registrations:read", "registrations:write"}})
	routes := append(webhookRoutes(ep.ID, d.ID),
		webhookRoute{"organizerCreateWebhookEndpoint", "POST", endpoints(), map[string]any{"url": "https://hooks.example.com/", "eventTypes": []string{"order.completed"}}, ""},
		webhookRoute{"organizerListWebhookEndpoints", "GET", endpoints(), nil, ""})
	for _, route := range routes {
		t.Run(route.op, func(t *testing.T) {
			res := send(t, req{route.method, route.url, secret(narrow.Key), route.body})
			wantError(t, res, 403, "lacks the webhooks:write scope")
			wantCode(t, res, 403, "scope_missing")
			for name, h := range map[string]map[string]string{"as a bearer": secret(o.publishable.Key), "in its header": browser(o.publishable.Key, site)} {
				res := send(t, req{route.method, route.url, h, route.body})
				if res.status != 403 {
					t.Fatalf("a publishable key %s: %d %s", name, res.status, res.body)
				}
				wantCode(t, res, 403, "key_wrong_surface")
			}
		})
	}
	res := send(t, req{"GET", endpoints(ep.ID), secret(o.secret.Key), nil})
	var got webhookEndpoint
	decodeOK(t, res, 200, "organizerGetWebhookEndpoint", &got)
	if got.Status != "enabled" {
		t.Fatalf("the endpoint after refused calls: %s", res.body)
	}
}

// wantNoTrace checks an answer names nothing of the endpoint: neither its URL nor its secret.
func wantNoTrace(t *testing.T, res response, ep stack.WebhookEndpoint) {
	t.Helper()
	if body := string(res.body); strings.Contains(body, ep.URL) || strings.Contains(body, ep.Secret) {
		t.Fatalf("the answer shows the other organizer's endpoint: %s", body)
	}
}

// errorMessage is the message of a standard error body, as JSON.
func errorMessage(t testing.TB, res response) string {
	t.Helper()
	return string(decode[struct {
		Message json.RawMessage `json:"message"`
	}](t, res).Message)
}

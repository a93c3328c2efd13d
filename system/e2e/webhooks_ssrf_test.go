package e2e

import (
	"testing"
)

// TestEndpointsRefuseAddressesTheyMustNotReach: the organizer API refuses, with a 400 naming
// url, an endpoint on a private address, the cloud metadata address, a unique-local IPv6
// address or plain http to a host that is not a loopback receiver; none is created, and an
// update to such a URL leaves the endpoint as it was. (The suite's stack allows loopback
// receivers by its setting; the connect-time refusals, after a DNS change or a redirect, are
// shown by the webhooks service's delivery tests with a listener that counts connections.)
func TestEndpointsRefuseAddressesTheyMustNotReach(t *testing.T) {
	o := newTenant(t)
	refused := []struct{ url, message string }{
		{"https://10.0.0.1/", "url must not address 10.0.0.1: the address is private"},
		{"https://169.254.169.254/", "url must not address 169.254.169.254: the address is a cloud metadata address"},
		{"https://[fd00::1]/", "url must not address fd00::1: the address is unique-local"},
		{"http://example.com", "url must be an https URL"},
	}
	for _, c := range refused {
		t.Run("create "+c.url, func(t *testing.T) {
			res := send(t, req{"POST", endpoints(), secret(o.secret.Key), map[string]any{"url": c.url, "eventTypes": []string{"order.completed"}}})
			wantError(t, res, 400, c.message)
			wantCode(t, res, 400, "validation_failed")
			conforms(t, "organizerCreateWebhookEndpoint", res)
		})
	}
	res := send(t, req{"GET", endpoints(), secret(o.secret.Key), nil})
	var list page[webhookEndpoint]
	if decodeOK(t, res, 200, "organizerListWebhookEndpoints", &list); list.Total != 0 {
		t.Fatalf("refused creates left endpoints: %s", res.body)
	}

	_, ep := startReceiver(t, o.secret.Key)
	for _, c := range refused {
		t.Run("update to "+c.url, func(t *testing.T) {
			res := send(t, req{"PATCH", endpoints(ep.ID), secret(o.secret.Key), map[string]any{"url": c.url}})
			wantError(t, res, 400, c.message)
			conforms(t, "organizerUpdateWebhookEndpoint", res)
		})
	}
	res = send(t, req{"GET", endpoints(ep.ID), secret(o.secret.Key), nil})
	var got webhookEndpoint
	if decodeOK(t, res, 200, "organizerGetWebhookEndpoint", &got); got.URL != ep.URL {
		t.Fatalf("refused updates changed the endpoint's URL: %s, want %s", res.body, ep.URL)
	}
}

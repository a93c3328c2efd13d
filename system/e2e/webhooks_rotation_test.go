package e2e

import (
	"crypto/rand"
	"encoding/base64"
	"strings"
	"testing"
	"time"

	"github.com/podiumhq/podium/system/stack"
)

// TestRotatedSecretVerifiesWithBothSecretsDuringTheOverlap: after rotate-secret, deliveries
// carry two signatures (the new secret's first), so a receiver holding only the old secret and
// one holding only the new secret both verify them with the reference library; a third
// secret does not. That the old secret stops signing 24 hours later is shown by the webhooks
// service's own tests, on a clock they set.
func TestRotatedSecretVerifiesWithBothSecretsDuringTheOverlap(t *testing.T) {
	o := newTenant(t)
	ev := importEvent(t, o.org, eventDoc(category("open", nil)))
	r, ep := startReceiver(t, o.secret.Key)
	old := ep.Secret

	before := sendPing(t, o.secret.Key, ep.ID)
	w, _ := waitHook(t, r, "ping", ep.ID)
	if w.ID != before.MessageID || len(signatures(w.Header.Get("webhook-signature"))) != 1 || !verifiesWith(t, w, old) {
		t.Fatalf("before the rotation: webhook-id %s (delivery's message %s), signatures %q", w.ID, before.MessageID, w.Header.Get("webhook-signature"))
	}

	res := send(t, req{"POST", endpoints(ep.ID, "rotate-secret"), secret(o.secret.Key), nil})
	var rotated webhookEndpoint
	decodeOK(t, res, 200, "organizerRotateWebhookEndpointSecret", &rotated)
	if rotated.ID != ep.ID || !strings.HasPrefix(rotated.Secret, "whsec_") || rotated.Secret == old || rotated.PreviousSecretExpiresAt == nil {
		t.Fatalf("rotate answered %s", res.body)
	}
	if until, err := time.Parse(time.RFC3339, *rotated.PreviousSecretExpiresAt); err != nil || time.Until(until) < 23*time.Hour || time.Until(until) > 25*time.Hour {
		t.Fatalf("the former secret signs until %s (%v), want about 24 hours from now", *rotated.PreviousSecretExpiresAt, err)
	}

	reg := createRegistration(t, o.secret.Key, registrationBody(ev, "open", "Team Rotated", athlete("Olga Rota", "FEMALE", "1990-01-01")))
	event, _ := waitHook(t, r, "registration.created", reg.RegistrationID)
	after := sendPing(t, o.secret.Key, ep.ID)
	ping, _ := waitMessage(t, r, after.MessageID)
	for _, w := range []struct {
		name string
		hook stack.Webhook
	}{{"registration.created", event}, {"ping", ping}} {
		sigs := signatures(w.hook.Header.Get("webhook-signature"))
		if len(sigs) != 2 || !strings.HasPrefix(sigs[0], "v1,") || !strings.HasPrefix(sigs[1], "v1,") {
			t.Fatalf("%s after the rotation is signed %q, want two v1 signatures", w.name, w.hook.Header.Get("webhook-signature"))
		}
		if !verifiesWith(t, w.hook, old) || !verifiesWith(t, w.hook, rotated.Secret) {
			t.Fatalf("%s does not verify with the old secret (%v) and the new one (%v)", w.name, verifiesWith(t, w.hook, old), verifiesWith(t, w.hook, rotated.Secret))
		}
		if verifiesWith(t, w.hook, newSigningSecret(t)) {
			t.Fatalf("%s verifies with a secret that is not the endpoint's", w.name)
		}
	}
}

// signatures splits a webhook-signature header into its signatures.
func signatures(header string) []string { return strings.Fields(header) }

// newSigningSecret is a signing secret of the endpoints' form that no endpoint has.
func newSigningSecret(t *testing.T) string {
	t.Helper()
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return "whsec_" + base64.StdEncoding.EncodeToString(b)
}

package stack

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

// gatewayStandIn answers the organizer API's endpoint creation as the webhooks service
// documents it, for the key "sk_test_webhooks", and keeps what it was sent.
func gatewayStandIn(t *testing.T, secret string, sent *map[string]any) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != webhookEndpointsPath {
			http.NotFound(w, r)
			return
		}
		if r.Header.Get("Authorization") != "Bearer sk_test_webhooks" {
			w.WriteHeader(http.StatusForbidden)
			_, _ = w.Write([]byte(`{"type":"about:blank","title":"Forbidden","status":403}`))
			return
		}
		if err := json.NewDecoder(r.Body).Decode(sent); err != nil {
			t.Error(err)
		}
		w.WriteHeader(http.StatusCreated)
		_ = json.NewEncoder(w).Encode(map[string]any{
			"id": "we_1", "url": (*sent)["url"], "eventTypes": (*sent)["eventTypes"], "status": "enabled", "livemode": true, "secret": secret,
		})
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestStartWebhookReceiverRegistersItForEveryTypeAndVerifiesWithItsSecret(t *testing.T) {
	secret := newSecret(t)
	var sent map[string]any
	s := &Stack{GatewayURLs: []string{gatewayStandIn(t, secret, &sent).URL}}
	r, e, err := s.StartWebhookReceiver(t.Context(), ReceiverOptions{}, "sk_test_webhooks")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = r.Close() })
	if e.ID != "we_1" || e.Secret != secret || sent["url"] != r.EndpointURL() || !strings.HasPrefix(r.URL, "http://127.0.0.1:") {
		t.Errorf("registered %+v with %v for the receiver at %s", e, sent, r.URL)
	}
	var types []string
	for _, v := range sent["eventTypes"].([]any) {
		types = append(types, v.(string))
	}
	if !slices.Equal(types, WebhookEventTypes) {
		t.Errorf("subscribed to %v, want every type %v", types, WebhookEventTypes)
	}
	send(t, r.EndpointURL(), secret, "msg_1", []byte(`{"type":"ping"}`))
	if hooks := r.Webhooks(); len(hooks) != 1 || !hooks[0].Verified {
		t.Errorf("a webhook signed with the endpoint's secret was kept as %+v", hooks)
	}
}

func TestRegisterReceiverReportsARefusal(t *testing.T) {
	var sent map[string]any
	s := &Stack{GatewayURLs: []string{gatewayStandIn(t, newSecret(t), &sent).URL}}
	r := startReceiver(t, ReceiverOptions{})
	_, err := s.RegisterReceiver(t.Context(), r, "sk_test_other", "order.completed")
	if err == nil || !strings.Contains(err.Error(), "403") {
		t.Fatalf("err %v, want the gateway's 403", err)
	}
}

// TestWebhooksServiceEnvironment: webhooks gets a fresh 32-byte SECRETS_KEY, allows loopback
// receivers, finds auth and is found by auth and the gateway; webhooks and auth sign, and each
// trusts the other.
func TestWebhooksServiceEnvironment(t *testing.T) {
	s := &Stack{opts: Options{StripeWebhookSecret: "whsec_x"}, URLs: map[string]string{}}
	if err := s.secrets(); err != nil {
		t.Fatal(err)
	}
	s.planURLs([]int{8081, 8082, 8083, 8084, 8085, 8080})
	if s.WebhooksURL() != "http://127.0.0.1:8085" || s.URLs["auth"] != "http://127.0.0.1:8081" || s.URLs["gateway"] != "" {
		t.Fatalf("planned %v", s.URLs)
	}
	env := envMap(s.serviceEnv("webhooks", "webhooks"))
	if key, err := base64.StdEncoding.DecodeString(env["SECRETS_KEY"]); err != nil || len(key) != 32 {
		t.Errorf("SECRETS_KEY=%q is not the base64 of 32 bytes", env["SECRETS_KEY"])
	}
	if env["ALLOW_LOOPBACK_RECEIVERS"] != "true" || env["AUTH_URL"] != s.URLs["auth"] || env["IDENTITY_PRIVATE_KEY"] == "" {
		t.Errorf("webhooks env %v", env)
	}
	if got, want := env["IDENTITY_TRUSTED_KEYS"], "gateway:"+s.identityKeys["gateway"].public+",auth:"+s.identityKeys["auth"].public+
		",registration:"+s.identityKeys["registration"].public; got != want {
		t.Errorf("webhooks trusts %q, want %q", got, want)
	}
	auth := envMap(s.serviceEnv("auth", "auth"))
	if auth["WEBHOOKS_URL"] != s.WebhooksURL() || auth["IDENTITY_PRIVATE_KEY"] != s.identityKeys["auth"].private ||
		!strings.Contains(auth["IDENTITY_TRUSTED_KEYS"], "webhooks:"+s.identityKeys["webhooks"].public) {
		t.Errorf("auth env %v", auth)
	}
	if gw := envMap(s.serviceEnv("gateway", "gateway")); gw["WEBHOOKS_URL"] != s.WebhooksURL() {
		t.Errorf("gateway WEBHOOKS_URL=%q", gw["WEBHOOKS_URL"])
	}
	if other := envMap(s.serviceEnv("checkout", "checkout")); other["ALLOW_LOOPBACK_RECEIVERS"] != "" {
		t.Error("checkout is given ALLOW_LOOPBACK_RECEIVERS")
	}
}

func envMap(env []string) map[string]string {
	out := map[string]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		out[k] = v
	}
	return out
}

// TestWebhooksClockMovesForwardOnly: under Options.Faults the webhooks service is given a shift
// file that AdvanceWebhooksClock adds to and WebhooksNow reads; no other service is given it.
func TestWebhooksClockMovesForwardOnly(t *testing.T) {
	c, err := newShiftClock("webhooks")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.close() })
	s := &Stack{URLs: map[string]string{}, webhooksClock: c}
	if got := envMap(s.serviceEnv("webhooks", "webhooks"))["CLOCK_SHIFT_FILE"]; got != c.path {
		t.Fatalf("CLOCK_SHIFT_FILE=%q, want %q", got, c.path)
	}
	if got := envMap(s.serviceEnv("checkout", "checkout"))["CLOCK_SHIFT_FILE"]; got != "" {
		t.Errorf("checkout is given CLOCK_SHIFT_FILE=%q", got)
	}
	for _, d := range []time.Duration{5 * time.Second, 26 * time.Hour} {
		if err := s.AdvanceWebhooksClock(d); err != nil {
			t.Fatal(err)
		}
	}
	want := 26*time.Hour + 5*time.Second
	if b, err := os.ReadFile(c.path); err != nil || strings.TrimSpace(string(b)) != want.String() {
		t.Errorf("shift file holds %q (%v), want %s", b, err, want)
	}
	if ahead := time.Until(s.WebhooksNow()); ahead < want-time.Minute || ahead > want {
		t.Errorf("WebhooksNow is %s ahead, want %s", ahead, want)
	}
	if err := s.AdvanceWebhooksClock(-time.Second); err == nil {
		t.Error("the clock moved back")
	}
	if err := (&Stack{}).AdvanceWebhooksClock(time.Second); err == nil {
		t.Error("a stack without Options.Faults moved a clock")
	}
}

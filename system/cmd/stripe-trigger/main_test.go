package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stripe/stripe-go/v76/webhook"

	"github.com/podiumhq/podium/libs/testkit"
)

const secret = "whsec_trigger_test"

// endpoint stands in for checkout's webhook route: it verifies the signature as checkout does
// and hands over each event it accepts. It answers 503 for a checkout it does not know
// (chk_unknown), as checkout asks Stripe to deliver such an event again.
func endpoint(t *testing.T) (string, <-chan map[string]any) {
	events := make(chan map[string]any, 10)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		payload, _ := io.ReadAll(r.Body)
		ev, err := webhook.ConstructEventWithOptions(payload, r.Header.Get("Stripe-Signature"), secret,
			webhook.ConstructEventOptions{IgnoreAPIVersionMismatch: true})
		if err != nil {
			http.Error(w, `{"message":"the Stripe-Signature header is missing, invalid or too old"}`, http.StatusBadRequest)
			return
		}
		var object map[string]any
		_ = json.Unmarshal(ev.Data.Raw, &object)
		object["type"] = string(ev.Type)
		events <- object
		if meta, _ := object["metadata"].(map[string]any); meta["checkoutId"] == "chk_unknown" {
			http.Error(w, `{"message":"the checkout of this session is not known yet; deliver the event again"}`, http.StatusServiceUnavailable)
			return
		}
		_, _ = w.Write([]byte(`{"received":true,"result":"applied"}`))
	}))
	t.Cleanup(srv.Close)
	return srv.URL, events
}

func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

// TestTriggerSendsSignedSessionEvents sends each kind of event from a checkout id alone: the
// endpoint accepts the signature, and the session reads as Stripe's would.
func TestTriggerSendsSignedSessionEvents(t *testing.T) {
	url, events := endpoint(t)
	for _, c := range []struct {
		args                       []string
		typ, status, paymentStatus string
		paymentIntent              bool
	}{
		{nil, "checkout.session.completed", "complete", "paid", true},
		{[]string{"--unpaid"}, "checkout.session.completed", "complete", "unpaid", true},
		{[]string{"--event", "async_succeeded"}, "checkout.session.async_payment_succeeded", "complete", "paid", true},
		{[]string{"--event", "async_failed"}, "checkout.session.async_payment_failed", "complete", "unpaid", true},
		{[]string{"--event", "expired"}, "checkout.session.expired", "expired", "unpaid", false},
	} {
		var out bytes.Buffer
		args := append([]string{"--session", "chk_abc", "--url", url}, c.args...)
		if err := run(t.Context(), args, env(map[string]string{"STRIPE_WEBHOOK_SECRET": secret}), &out); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out.String())
		}
		if want := c.typ + " -> " + url + ": 200 OK\n" + `{"received":true,"result":"applied"}`; !strings.Contains(out.String(), want) {
			t.Fatalf("%v printed %q, want %q", args, out.String(), want)
		}
		s := <-events
		_, hasIntent := s["payment_intent"]
		if s["type"] != c.typ || s["id"] != "cs_test_trigger_abc" || s["metadata"].(map[string]any)["checkoutId"] != "chk_abc" ||
			s["status"] != c.status || s["payment_status"] != c.paymentStatus || hasIntent != c.paymentIntent {
			t.Fatalf("%v sent %v", args, s)
		}
	}
}

// TestTriggerReadsTheSessionFromCheckoutsDatabase fills the event from checkout's record of an
// order: ids, payment intent, amount and currency.
func TestTriggerReadsTheSessionFromCheckoutsDatabase(t *testing.T) {
	dbURL := testkit.DatabaseURL(t)
	conn, err := pgx.Connect(t.Context(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(t.Context())
	// The columns the trigger reads, as checkout's migrations create them.
	if _, err := conn.Exec(t.Context(), `CREATE TABLE checkouts (id text PRIMARY KEY, organizer_id text NOT NULL, event_id text NOT NULL,
		currency text NOT NULL, total bigint NOT NULL, order_id text, session_id text, payment_intent text, created_at timestamptz NOT NULL);
		INSERT INTO checkouts VALUES ('chk_1', 'org_1', 'evt_1', 'EUR', 5875, 'ord_1', 'cs_test_1', 'pi_1', now());`); err != nil {
		t.Fatal(err)
	}
	url, events := endpoint(t)
	vars := map[string]string{"STRIPE_WEBHOOK_SECRET": secret, "DATABASE_URL": dbURL}
	for _, id := range []string{"ord_1", "cs_test_1", "chk_1"} {
		var out bytes.Buffer
		if err := run(t.Context(), []string{"--session", id, "--url", url}, env(vars), &out); err != nil {
			t.Fatalf("%s: %v\n%s", id, err, out.String())
		}
		s := <-events
		meta := s["metadata"].(map[string]any)
		if s["id"] != "cs_test_1" || meta["checkoutId"] != "chk_1" || meta["orderId"] != "ord_1" || meta["eventId"] != "evt_1" ||
			meta["organizerId"] != "org_1" || s["client_reference_id"] != "ord_1" || s["payment_intent"] != "pi_1" ||
			s["amount_total"] != 5875.0 || s["currency"] != "eur" {
			t.Fatalf("%s sent %v", id, s)
		}
	}
	if err := run(t.Context(), []string{"--session", "ord_none", "--url", url}, env(vars), io.Discard); err == nil || !strings.Contains(err.Error(), "no checkout has it") {
		t.Fatalf("an unknown order: %v", err)
	}
}

// TestTriggerReportsRefusalsAndBadCommandLines: an endpoint's refusal fails the command with
// what it answered printed; a command line it cannot understand is a usage error.
func TestTriggerReportsRefusalsAndBadCommandLines(t *testing.T) {
	url, _ := endpoint(t)
	withSecret := env(map[string]string{"STRIPE_WEBHOOK_SECRET": secret})
	var out bytes.Buffer
	if err := run(t.Context(), []string{"--session", "chk_unknown", "--url", url}, withSecret, &out); err == nil || !strings.Contains(out.String(), ": 503 Service Unavailable") {
		t.Fatalf("a refused event: %v %s", err, out.String())
	}
	for _, c := range []struct {
		args []string
		env  func(string) string
	}{
		{[]string{"--session", "chk_1"}, env(nil)},
		{[]string{"--event", "paid"}, withSecret},
		{[]string{"--session", "chk_1", "--event", "paid"}, withSecret},
		{[]string{"--session", "ord_1"}, withSecret},
		{[]string{"--session", "chk_1", "extra"}, withSecret},
		{[]string{"--frobnicate"}, withSecret},
	} {
		if err := run(t.Context(), c.args, c.env, io.Discard); !errors.Is(err, errUsage) {
			t.Fatalf("%v: %v, want a usage error", c.args, err)
		}
	}
}

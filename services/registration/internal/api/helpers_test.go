package api_test

import (
	"crypto/rand"
	"fmt"
	"strings"
	"testing"

	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/registration/internal/app"
	"github.com/podiumhq/podium/services/registration/internal/domain"
	"github.com/podiumhq/podium/services/registration/internal/regtest"
)

const (
	orgA = "org_alpha"
	orgB = "org_beta"
	evtA = "evt_alpha"
	evtB = "evt_beta"
)

// start runs a service with the events of both organizers in the catalog double.
func start(t testing.TB, o regtest.Options) *regtest.Env {
	t.Helper()
	env := regtest.Start(t, o)
	env.Catalog.Put(regtest.Event(evtA, orgA))
	env.Catalog.Put(regtest.Event(evtB, orgB))
	return env
}

// pay applies checkout's payment.succeeded of an order, in a message of its own, as the
// payments consumer does: the one way an order is confirmed. Safe from several goroutines.
func pay(t testing.TB, env *regtest.Env, orderID, paymentRef string, amount int64) {
	t.Helper()
	p := app.Payment{MessageID: "msg_" + rand.Text(), Type: domain.EventPaymentSucceeded, OrderID: orderID, PaymentRef: paymentRef, Amount: &amount}
	if err := env.Service.ApplyPayment(t.Context(), p); err != nil {
		t.Errorf("payment of %s: %v", orderID, err)
	}
}

func athlete(name, gender, birth string) map[string]any {
	return map[string]any{
		"fullname": name, "idNumber": "ID-" + name, "email": strings.ToLower(strings.ReplaceAll(name, " ", ".")) + "@example.com",
		"phone": "+34600111222", "gender": gender, "birthDate": birth,
	}
}

// createBody is a valid create body for cat_rx.
func createBody(name string) map[string]any {
	return map[string]any{
		"eventId": evtA, "categoryId": "cat_rx", "teamName": "Team " + name, "club": "Box " + name,
		"athletes":     []any{athlete(name, "MALE", "1990-05-01")},
		"customFields": []any{map[string]any{"fieldId": "fld_size", "value": "M"}},
	}
}

// wantError checks the standard error body and that its message contains every part.
func wantError(t *testing.T, r testkit.Response, status int, parts ...string) {
	t.Helper()
	if r.Status != status {
		t.Fatalf("status %d, want %d: %s", r.Status, status, r.Raw)
	}
	if int(r.Body["statusCode"].(float64)) != status || r.Body["error"] == "" || r.Body["requestId"] != r.Header.Get("X-Request-Id") {
		t.Fatalf("not the standard error body: %s", r.Raw)
	}
	msg := fmt.Sprint(r.Body["message"])
	for _, p := range parts {
		if !strings.Contains(msg, p) {
			t.Fatalf("message %q does not contain %q", msg, p)
		}
	}
}

// create registers name in org A and returns the response body.
func create(t testing.TB, env *regtest.Env, body map[string]any) map[string]any {
	t.Helper()
	r := env.Do(t, "POST", "/external/v1/organizer/registrations", body, env.Secret(t, orgA))
	if r.Status != 201 {
		t.Fatalf("create: %d %s", r.Status, r.Raw)
	}
	env.Valid(t, "organizerCreateRegistration", r)
	return r.Body
}

func ticketOf(reg map[string]any, i int) string {
	return reg["tickets"].([]any)[i].(map[string]any)["ticketId"].(string)
}

// unless is problem when ok is false, else "".
func unless(ok bool, problem string) string {
	if ok {
		return ""
	}
	return problem
}

// wantCode checks the error body's code.
func wantCode(t testing.TB, r testkit.Response, code string) {
	t.Helper()
	if r.Body["code"] != code {
		t.Fatalf("code %v, want %s: %s", r.Body["code"], code, r.Raw)
	}
}

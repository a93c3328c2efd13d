package api_test

import (
	"strings"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/registration/internal/domain"
	"github.com/podiumhq/podium/services/registration/internal/regtest"
)

func TestReceipts(t *testing.T) {
	env := start(t, regtest.Options{Mail: true})
	browser := env.Browser(t, orgA)
	a := createBody("Ana")
	a["athletes"] = []any{map[string]any{"fullname": "Ana", "idNumber": "1", "email": "Ana@Example.com", "phone": "+34600111222", "gender": "FEMALE", "birthDate": "1990-01-01"}}
	reg := create(t, env, a)
	create(t, env, createBody("Bea"))
	// A paid checkout order whose purchaser is Ana, and a hold still pending (not a receipt).
	tok := env.Browser(t, orgA)
	o := env.Do(t, "POST", "/internal/holds", map[string]any{"holdId": "r-1", "eventId": evtA, "expiresAt": time.Now().Add(time.Hour).Format(time.RFC3339),
		"currency": "EUR", "amount": 6500, "purchaserEmail": "ana@example.com", "purchaserName": "Ana", "registrations": []any{holdReg("Guest")}}, tok).Body["orderId"].(string)
	pay(t, env, o, "pi_1", 6500)
	// Bea bought a place for Carla too: Carla's contact finds that order's receipt.
	carla := holdReg("Carla")
	carla["guestEmail"], carla["guestName"] = "carla@example.com", "Carla"
	guestOrder := env.Do(t, "POST", "/internal/holds", map[string]any{"holdId": "r-3", "eventId": evtA, "expiresAt": time.Now().Add(time.Hour).Format(time.RFC3339),
		"currency": "EUR", "amount": 13000, "purchaserEmail": "bea@example.com", "purchaserName": "Bea", "registrations": []any{holdReg("Bea"), carla}}, tok).Body["orderId"].(string)
	pay(t, env, guestOrder, "pi_3", 13000)
	env.Do(t, "POST", "/internal/holds", map[string]any{"holdId": "r-2", "eventId": evtA, "expiresAt": time.Now().Add(time.Hour).Format(time.RFC3339),
		"currency": "EUR", "amount": 6500, "purchaserEmail": "ana@example.com", "purchaserName": "Ana", "registrations": []any{holdReg("Later")}}, tok)

	r := env.Do(t, "POST", "/external/v1/browser/events/"+evtA+"/registration-receipts/lookup", map[string]any{"email": "ANA@example.com"}, browser)
	env.Valid(t, "browserLookupReceipts", r)
	if r.Status != 201 || r.Body["found"] != true || r.Body["count"].(float64) != 2 || len(r.Body) != 2 {
		t.Fatalf("lookup: %d %s", r.Status, r.Raw)
	}
	r = env.Do(t, "POST", "/external/v1/browser/events/"+evtA+"/registration-receipts/lookup", map[string]any{"email": "nobody@example.com"}, browser)
	if r.Body["found"] != false || r.Body["count"].(float64) != 0 {
		t.Fatalf("lookup of an unknown address: %s", r.Raw)
	}
	r = env.Do(t, "POST", "/external/v1/browser/events/"+evtA+"/registration-receipts/lookup", map[string]any{"email": "Carla@Example.com"}, browser)
	if r.Body["found"] != true || r.Body["count"].(float64) != 1 {
		t.Fatalf("lookup of a guest's address: %s", r.Raw)
	}
	r = env.Do(t, "POST", "/external/v1/browser/events/"+evtA+"/registration-receipts/send", map[string]any{"email": "ana@example.com"}, browser)
	env.Valid(t, "browserSendReceipts", r)
	if r.Status != 201 || r.Body["accepted"] != true || r.Body["count"].(float64) != 2 {
		t.Fatalf("send: %d %s", r.Status, r.Raw)
	}
	m := regtest.WaitMail(t, env.Mail, "ana@example.com")
	if !strings.Contains(m.Subject, "Summer Throwdown") || !strings.Contains(m.Body, reg["orderId"].(string)) ||
		!strings.Contains(m.Body, o) || !strings.Contains(m.Body, ticketOf(reg, 0)) || !strings.Contains(m.Body, "65.00 EUR") ||
		!strings.Contains(m.Body, "team Team Guest") || strings.Contains(m.Body, "Bea") || strings.Contains(m.Body, "Later") {
		t.Fatalf("mail %+v", m)
	}
	// Zero matches send nothing.
	r = env.Do(t, "POST", "/external/v1/browser/events/"+evtA+"/registration-receipts/send", map[string]any{"email": "nobody@example.com"}, browser)
	if r.Body["accepted"] != true || r.Body["count"].(float64) != 0 {
		t.Fatalf("send to nobody: %s", r.Raw)
	}
	var queued int
	if err := env.Pool.QueryRow(t.Context(), `SELECT count(*) FROM mail_outbox WHERE recipient = 'nobody@example.com'`).Scan(&queued); err != nil || queued != 0 {
		t.Fatalf("%d mails queued to nobody (%v), want 0", queued, err)
	}
	if n := len(env.Mail.Messages()); n != 1 { // a queued mail leaves the outbox only once delivered
		t.Fatalf("%d messages sent, want 1", n)
	}
	// Only published, non-private events are visible on the browser surface.
	for name, change := range map[string]func(*domain.Event){
		"draft":   func(e *domain.Event) { e.Status = "DRAFT" },
		"private": func(e *domain.Event) { e.Private = true },
	} {
		e := regtest.Event(evtA, orgA)
		change(&e)
		env.Catalog.Put(e)
		r := env.Do(t, "POST", "/external/v1/browser/events/"+evtA+"/registration-receipts/lookup", map[string]any{"email": "ana@example.com"}, browser)
		wantError(t, r, 404, "event "+evtA+" not found")
		env.Valid(t, "browserLookupReceipts", r)
		_ = name
	}
}

func TestMailSurvivesAnSMTPOutage(t *testing.T) {
	env := start(t, regtest.Options{})
	// No mail worker runs yet: the message waits in the outbox.
	create(t, env, createBody("Ana"))
	r := env.Do(t, "POST", "/external/v1/browser/events/"+evtA+"/registration-receipts/send", map[string]any{"email": "ana@example.com"}, env.Browser(t, orgA))
	if r.Body["count"].(float64) != 1 {
		t.Fatalf("send: %s", r.Raw)
	}
	var n int
	_ = env.Pool.QueryRow(t.Context(), `SELECT count(*) FROM mail_outbox`).Scan(&n)
	if n != 1 {
		t.Fatalf("outbox holds %d messages", n)
	}
	failing := env.StartMailWorker(t, "127.0.0.1:1") // nothing listens on port 1
	testkit.Eventually(t, 10*time.Second, func() string {
		var attempts int
		if err := env.Pool.QueryRow(t.Context(), `SELECT attempts FROM mail_outbox`).Scan(&attempts); err != nil {
			t.Fatal(err)
		}
		if attempts < 1 {
			return "the failing worker did not try"
		}
		return ""
	})
	failing()
	_, _ = env.Pool.Exec(t.Context(), `UPDATE mail_outbox SET next_attempt_at = now()`)
	catcher := regtest.StartMailCatcher(t)
	env.StartMailWorker(t, catcher.Addr())
	regtest.WaitMail(t, catcher, "ana@example.com")
}

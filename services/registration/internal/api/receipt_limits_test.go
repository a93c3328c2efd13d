package api_test

import (
	"errors"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/registration/internal/app"
	"github.com/podiumhq/podium/services/registration/internal/domain"
	"github.com/podiumhq/podium/services/registration/internal/regtest"
)

// queuedTo counts the mails waiting in the outbox for recipient.
func queuedTo(t *testing.T, env *regtest.Env, recipient string) int {
	t.Helper()
	var n int
	if err := env.Pool.QueryRow(t.Context(), `SELECT count(*) FROM mail_outbox WHERE recipient = $1`, recipient).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// withEmail is a create body for name whose athlete uses email.
func withEmail(name, email string) map[string]any {
	b := createBody(name)
	a := athlete(name, "MALE", "1990-05-01")
	a["email"] = email
	b["athletes"] = []any{a}
	return b
}

// TestReceiptMailsHaveACooldown: an address mailed an event's receipts is refused another
// receipt mail for that event for 10 minutes (429, Retry-After, a message to check the
// inbox), in any case of the address; another address is not; after the cooldown, a mail to
// the address that is still unsent is not queued twice.
func TestReceiptMailsHaveACooldown(t *testing.T) {
	env := start(t, regtest.Options{}) // no mail worker: queued mails stay in the outbox
	create(t, env, withEmail("Ana", "ana@example.com"))
	create(t, env, withEmail("Bea", "bea@example.com"))
	send := func(email string) testkit.Response {
		r := env.Do(t, "POST", "/external/v1/browser/events/"+evtA+"/registration-receipts/send", map[string]any{"email": email}, env.Browser(t, orgA))
		env.Valid(t, "browserSendReceipts", r)
		return r
	}
	if r := send("ana@example.com"); r.Status != 201 || r.Body["count"].(float64) != 1 {
		t.Fatalf("first send: %d %s", r.Status, r.Raw)
	}
	env.Clock.Advance(time.Minute)
	again := send("ANA@Example.com")
	wantError(t, again, 429, "sent to this address a moment ago", "check the inbox")
	if s, err := strconv.Atoi(again.Header.Get("Retry-After")); err != nil || s < 539 || s > 541 {
		t.Fatalf("Retry-After %q, want 540 (nine minutes of the cooldown left)", again.Header.Get("Retry-After"))
	}
	if r := send("bea@example.com"); r.Status != 201 {
		t.Fatalf("another recipient: %d %s", r.Status, r.Raw)
	}
	env.Clock.Advance(9*time.Minute + time.Second)
	if r := send("ana@example.com"); r.Status != 201 || r.Body["count"].(float64) != 1 {
		t.Fatalf("send after the cooldown: %d %s", r.Status, r.Raw)
	}
	if a, b := queuedTo(t, env, "ana@example.com"), queuedTo(t, env, "bea@example.com"); a != 1 || b != 1 {
		t.Fatalf("%d mails queued to ana (the first is still unsent), %d to bea; want one each", a, b)
	}
}

// TestConcurrentReceiptSendsQueueOneMail: ten sends to one address at once queue one mail;
// the others are refused with 429.
func TestConcurrentReceiptSendsQueueOneMail(t *testing.T) {
	env := start(t, regtest.Options{})
	create(t, env, withEmail("Carla", "carla@example.com"))
	tok := env.Browser(t, orgA)
	statuses := make([]int, 10)
	var wg sync.WaitGroup
	for i := range statuses {
		wg.Go(func() {
			statuses[i] = env.Do(t, "POST", "/external/v1/browser/events/"+evtA+"/registration-receipts/send", map[string]any{"email": "carla@example.com"}, tok).Status
		})
	}
	wg.Wait()
	accepted, refused := 0, 0
	for _, s := range statuses {
		switch s {
		case 201:
			accepted++
		case 429:
			refused++
		}
	}
	if n := queuedTo(t, env, "carla@example.com"); accepted != 1 || refused != 9 || n != 1 {
		t.Fatalf("%d accepted, %d refused, %d mails queued; want 1, 9 and 1 (%v)", accepted, refused, n, statuses)
	}
}

// TestDuplicateReceiptMailsAreDropped: without a cooldown, ten sends to one address at once are
// all accepted and queue one mail, since a mail to it for the event is still unsent.
func TestDuplicateReceiptMailsAreDropped(t *testing.T) {
	env := start(t, regtest.Options{App: &app.Options{HoldLimits: domain.DefaultHoldLimits}})
	create(t, env, withEmail("Dora", "dora@example.com"))
	tok := env.Browser(t, orgA)
	statuses := make([]int, 10)
	var wg sync.WaitGroup
	for i := range statuses {
		wg.Go(func() {
			statuses[i] = env.Do(t, "POST", "/external/v1/browser/events/"+evtA+"/registration-receipts/send", map[string]any{"email": "dora@example.com"}, tok).Status
		})
	}
	wg.Wait()
	for _, s := range statuses {
		if s != 201 {
			t.Fatalf("statuses %v, want 201 for every send without a cooldown", statuses)
		}
	}
	if n := queuedTo(t, env, "dora@example.com"); n != 1 {
		t.Fatalf("%d mails queued, want 1", n)
	}
}

// queuedBodies returns the bodies of the mails waiting in the outbox for recipient.
func queuedBodies(t *testing.T, env *regtest.Env, recipient string) []string {
	t.Helper()
	rows, err := env.Pool.Query(t.Context(), `SELECT body FROM mail_outbox WHERE recipient = $1`, recipient)
	if err != nil {
		t.Fatal(err)
	}
	bodies, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	return bodies
}

// TestAnUnsentReceiptMailTakesTheNewestReceipts: when an address asks again for its receipts
// (its cooldown over) while the first mail is still unsent, that one mail is brought up to
// date: it lists the order completed since, and is not queued twice.
func TestAnUnsentReceiptMailTakesTheNewestReceipts(t *testing.T) {
	env := start(t, regtest.Options{}) // no mail worker: queued mails stay in the outbox
	first := create(t, env, withEmail("Ema", "ema@example.com"))
	send := func() {
		t.Helper()
		if r := env.Do(t, "POST", "/external/v1/browser/events/"+evtA+"/registration-receipts/send", map[string]any{"email": "ema@example.com"}, env.Browser(t, orgA)); r.Status != 201 {
			t.Fatalf("send: %d %s", r.Status, r.Raw)
		}
	}
	send()
	env.Clock.Advance(app.DefaultReceiptCooldown + time.Second)
	second := create(t, env, withEmail("Ema Again", "ema@example.com"))
	send()
	bodies := queuedBodies(t, env, "ema@example.com")
	if len(bodies) != 1 || !strings.Contains(bodies[0], first["orderId"].(string)) || !strings.Contains(bodies[0], second["orderId"].(string)) {
		t.Fatalf("queued %q; want one mail listing orders %s and %s", bodies, first["orderId"], second["orderId"])
	}
}

// TestAReceiptMailUpdatedWhileSendingIsStillSent: a worker that was sending a receipt mail's
// older content when it was brought up to date neither removes nor delays the newer content,
// which stays queued to send.
func TestAReceiptMailUpdatedWhileSendingIsStillSent(t *testing.T) {
	env := start(t, regtest.Options{App: &app.Options{}}) // no cooldown, no mail worker
	create(t, env, withEmail("Flo", "flo@example.com"))
	send := func() {
		t.Helper()
		if r := env.Do(t, "POST", "/external/v1/browser/events/"+evtA+"/registration-receipts/send", map[string]any{"email": "flo@example.com"}, env.Browser(t, orgA)); r.Status != 201 {
			t.Fatalf("send: %d %s", r.Status, r.Raw)
		}
	}
	send()
	claimed, err := env.Repo.ClaimMail(t.Context(), 10, time.Minute) // a worker starts sending it
	if err != nil || len(claimed) != 1 {
		t.Fatalf("claimed %d (%v)", len(claimed), err)
	}
	second := create(t, env, withEmail("Flo Again", "flo@example.com"))
	send()
	if err := env.Repo.MailFailed(t.Context(), claimed[0], time.Hour, errors.New("smtp down")); err != nil {
		t.Fatal(err)
	}
	if err := env.Repo.MailSent(t.Context(), claimed[0]); err != nil {
		t.Fatal(err)
	}
	var body string
	var delayed bool
	if err := env.Pool.QueryRow(t.Context(), `SELECT body, next_attempt_at > now() + interval '2 minutes' FROM mail_outbox WHERE recipient = 'flo@example.com'`).
		Scan(&body, &delayed); err != nil || !strings.Contains(body, second["orderId"].(string)) || delayed {
		t.Fatalf("the newer mail: %v, delayed %v (%v); want it queued, listing %s, not delayed past its lease", body, delayed, err, second["orderId"])
	}
}

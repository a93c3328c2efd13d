package api_test

import (
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/registration/internal/app"
	"github.com/podiumhq/podium/services/registration/internal/domain"
	"github.com/podiumhq/podium/services/registration/internal/regtest"
)

const registrations = "/external/v1/organizer/registrations"

// livemodes returns the livemode of a registration answer and of its order.
func livemodes(body map[string]any) (registration, order any) {
	o, _ := body["order"].(map[string]any)
	return body["livemode"], o["livemode"]
}

func TestTestAndLiveDataAreInvisibleToEachOther(t *testing.T) {
	env := start(t, regtest.Options{})
	live, test := env.Secret(t, orgA), env.TestSecret(t, orgA)
	lb, tb := createBody("Ana"), createBody("Tess")
	lb["bibRaceNumber"], tb["bibRaceNumber"] = 7, 7 // a bib number is unique within a mode only
	lr := env.Do(t, "POST", registrations, lb, live)
	tr := env.Do(t, "POST", registrations, tb, test)
	if lr.Status != 201 || tr.Status != 201 {
		t.Fatalf("creates: %d %s / %d %s", lr.Status, lr.Raw, tr.Status, tr.Raw)
	}
	env.Valid(t, "organizerCreateRegistration", tr)
	if r, o := livemodes(lr.Body); r != true || o != true {
		t.Fatalf("live create answered livemode %v/%v", r, o)
	}
	if r, o := livemodes(tr.Body); r != false || o != false {
		t.Fatalf("test create answered livemode %v/%v", r, o)
	}
	dup := createBody("Dup")
	dup["bibRaceNumber"] = 7
	wantCode(t, env.Do(t, "POST", registrations, dup, test), domain.CodeBibTaken)
	liveTicket, testTicket := ticketOf(lr.Body, 0), ticketOf(tr.Body, 0)

	for _, c := range []struct {
		tok, ticket string
		livemode    bool
	}{{live, liveTicket, true}, {test, testTicket, false}} {
		s := env.Do(t, "POST", registrations+"/search", map[string]any{}, c.tok)
		env.Valid(t, "organizerSearchRegistrations", s)
		data := s.Body["data"].([]any)
		if s.Status != 201 || s.Body["total"].(float64) != 1 || len(data) != 1 {
			t.Fatalf("search (livemode %v): %d %s", c.livemode, s.Status, s.Raw)
		}
		row := data[0].(map[string]any)
		if row["ticket"].(map[string]any)["ticketId"] != c.ticket || row["registration"].(map[string]any)["livemode"] != c.livemode ||
			row["order"].(map[string]any)["livemode"] != c.livemode {
			t.Fatalf("search (livemode %v) found %s", c.livemode, s.Raw)
		}
	}
	// The other mode's tickets are answered as another organizer's: not found.
	for _, c := range []struct{ tok, ticket string }{{test, liveTicket}, {live, testTicket}} {
		wantError(t, env.Do(t, "PATCH", registrations+"/"+c.ticket, map[string]any{"note": "x"}, c.tok), 404)
		wantError(t, env.Do(t, "DELETE", registrations+"/"+c.ticket, nil, c.tok), 404)
	}
	r := env.Do(t, "PATCH", registrations+"/"+testTicket, map[string]any{"note": "test note"}, test)
	if r.Status != 200 || r.Body["livemode"] != false {
		t.Fatalf("update of a test registration: %d %s", r.Status, r.Raw)
	}
	if r := env.Do(t, "DELETE", registrations+"/"+testTicket, nil, test); r.Status != 200 {
		t.Fatalf("delete of a test registration: %d %s", r.Status, r.Raw)
	}
	wantError(t, env.Do(t, "DELETE", registrations+"/"+testTicket, nil, live), 404)
}

func TestReceiptsAreFoundInTheirOwnMode(t *testing.T) {
	env := start(t, regtest.Options{})
	draft := regtest.Event("evt_draft", orgA)
	draft.Status = "DRAFT"
	env.Catalog.Put(draft)
	draftLookup := "/external/v1/browser/events/evt_draft/registration-receipts/lookup"
	// A test key previews an event not published yet; a live key never sees it.
	wantError(t, env.Do(t, "POST", draftLookup, map[string]any{"email": "ana@example.com"}, env.Browser(t, orgA)), 404)
	if r := env.Do(t, "POST", draftLookup, map[string]any{"email": "ana@example.com"}, env.TestBrowser(t, orgA)); r.Status != 201 || r.Body["count"].(float64) != 0 {
		t.Fatalf("test lookup in a draft event: %d %s", r.Status, r.Raw)
	}
	env.Do(t, "POST", registrations, createBody("Ana"), env.Secret(t, orgA))
	env.Do(t, "POST", registrations, createBody("Ana"), env.TestSecret(t, orgA))
	env.Do(t, "POST", registrations, createBody("Ana"), env.TestSecret(t, orgA))
	lookup := "/external/v1/browser/events/" + evtA + "/registration-receipts/lookup"
	for tok, want := range map[string]float64{env.Browser(t, orgA): 1, env.TestBrowser(t, orgA): 2} {
		r := env.Do(t, "POST", lookup, map[string]any{"email": "ana@example.com"}, tok)
		if r.Status != 201 || r.Body["count"].(float64) != want {
			t.Fatalf("lookup: %d %s, want %v", r.Status, r.Raw, want)
		}
	}
}

// smallEvent is evtA with 2 places in cat_rx.
func smallEvent() domain.Event {
	e := regtest.Event(evtA, orgA)
	two := 2
	e.Categories[0].Quota = &two
	return e
}

func placesOf(t *testing.T, env *regtest.Env, cat string, livemode bool) (confirmed, held int) {
	t.Helper()
	_ = env.Pool.QueryRow(t.Context(), `SELECT confirmed, held FROM places WHERE category_id = $1 AND livemode = $2`, cat, livemode).Scan(&confirmed, &held)
	return
}

func TestLedgerIsKeptPerMode(t *testing.T) {
	env := start(t, regtest.Options{})
	env.Catalog.Put(smallEvent())
	live, test := env.Secret(t, orgA), env.TestSecret(t, orgA)
	for _, name := range []string{"T1", "T2"} {
		if r := env.Do(t, "POST", registrations, createBody(name), test); r.Status != 201 {
			t.Fatalf("test create: %d %s", r.Status, r.Raw)
		}
	}
	// The test sell-out is tried: the next test create and hold are refused...
	full := env.Do(t, "POST", registrations, createBody("T3"), test)
	wantError(t, full, 409)
	wantCode(t, full, domain.CodeQuotaExhausted)
	hold := env.Do(t, "POST", "/internal/holds", holdBody("t-hold", time.Now().Add(time.Hour), holdReg("T4")), env.TestBrowser(t, orgA))
	wantCode(t, hold, domain.CodeQuotaExhausted)
	// ...while every live place is still free.
	for _, name := range []string{"L1", "L2"} {
		if r := env.Do(t, "POST", registrations, createBody(name), live); r.Status != 201 {
			t.Fatalf("live create after the test sell-out: %d %s", r.Status, r.Raw)
		}
	}
	if c, h := placesOf(t, env, "cat_rx", true); c != 2 || h != 0 {
		t.Fatalf("live places %d/%d", c, h)
	}
	if c, h := placesOf(t, env, "cat_rx", false); c != 2 || h != 0 {
		t.Fatalf("test places %d/%d", c, h)
	}
	// Each mode's places events carry its own counts and versions.
	for _, livemode := range []bool{true, false} {
		var confirmed, version int
		err := env.Pool.QueryRow(t.Context(), `SELECT (p->'categories'->0->>'confirmed')::int, (p->'categories'->0->>'version')::int
			FROM (SELECT convert_from(payload, 'UTF8')::json AS p, id FROM outbox WHERE topic = $1) m
			WHERE (p->>'livemode')::boolean = $2 ORDER BY id DESC LIMIT 1`, domain.PlacesTopic, livemode).Scan(&confirmed, &version)
		if err != nil || confirmed != 2 || version != 2 {
			t.Fatalf("last places event of livemode %v: confirmed %d, version %d (%v)", livemode, confirmed, version, err)
		}
	}
}

func TestPaymentsApplyInTheirOwnMode(t *testing.T) {
	env := start(t, regtest.Options{})
	tok := env.TestBrowser(t, orgA) // checkout passes the browser's test principal through
	order := env.Do(t, "POST", "/internal/holds", holdBody("t-1", time.Now().Add(time.Hour), holdReg("Ana")), tok).Body["orderId"].(string)
	other := env.Do(t, "POST", "/internal/holds", holdBody("t-2", time.Now().Add(time.Hour), holdReg("Bea")), tok).Body["orderId"].(string)
	if c, h := placesOf(t, env, "cat_rx", false); c != 0 || h != 2 {
		t.Fatalf("test places held %d/%d", c, h)
	}
	amount := int64(6500)
	apply := func(p app.Payment) {
		t.Helper()
		if err := env.Service.ApplyPayment(t.Context(), p); err != nil {
			t.Fatal(err)
		}
	}
	// A live payment event never reaches a test order.
	apply(app.Payment{MessageID: "m-1", Type: domain.EventPaymentSucceeded, OrderID: order, PaymentRef: "pi_1", Amount: &amount})
	apply(app.Payment{MessageID: "m-2", Type: domain.EventPaymentFailed, OrderID: other, Reason: domain.ReleaseFailed})
	if s, s2 := orderStatus(t, env, order), orderStatus(t, env, other); s != "PENDING" || s2 != "PENDING" {
		t.Fatalf("test orders after live payment events: %s, %s", s, s2)
	}
	apply(app.Payment{MessageID: "m-3", Type: domain.EventPaymentSucceeded, OrderID: order, PaymentRef: "pi_1", Amount: &amount, Test: true})
	if s := orderStatus(t, env, order); s != "COMPLETED" {
		t.Fatalf("test order after its test payment: %s", s)
	}
	if c, h := placesOf(t, env, "cat_rx", false); c != 1 || h != 1 {
		t.Fatalf("test places after the payment %d/%d", c, h)
	}
	if c, h := placesOf(t, env, "cat_rx", true); c != 0 || h != 0 {
		t.Fatalf("live places %d/%d", c, h)
	}
	var lm string
	if err := env.Pool.QueryRow(t.Context(), `SELECT convert_from(payload, 'UTF8')::json->>'livemode' FROM outbox
		WHERE key = $1 AND headers->>'ce_type' = $2`, order, domain.EventOrderCompleted).Scan(&lm); err != nil || lm != "false" {
		t.Fatalf("order.completed of a test order: livemode %q, %v", lm, err)
	}
	// checkout's release of a hold reaches it in its own mode only.
	wantError(t, env.Do(t, "POST", "/internal/holds/"+other+"/release", map[string]any{"reason": "CANCELLED"}, env.Browser(t, orgA)), 404)
	if r := env.Do(t, "POST", "/internal/holds/"+other+"/release", map[string]any{"reason": "CANCELLED"}, tok); r.Status != 200 || r.Body["status"] != "CANCELLED" {
		t.Fatalf("test release: %d %s", r.Status, r.Raw)
	}
}

func testMail(t *testing.T, env *regtest.Env, query, tok string) testkit.Response {
	t.Helper()
	return env.Do(t, "GET", "/external/v1/organizer/test/mail"+query, nil, tok)
}

func TestTestMailIsKeptNotSent(t *testing.T) {
	env := start(t, regtest.Options{})
	t0 := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	env.Clock.Set(t0)
	test := env.TestSecret(t, orgA)
	reg := env.Do(t, "POST", registrations, createBody("Ana"), test).Body
	env.Clock.Advance(time.Minute)
	send := env.Do(t, "POST", "/external/v1/browser/events/"+evtA+"/registration-receipts/send", map[string]any{"email": "ana@example.com"}, env.TestBrowser(t, orgA))
	if send.Status != 201 || send.Body["count"].(float64) != 1 {
		t.Fatalf("send: %d %s", send.Status, send.Raw)
	}
	env.Clock.Advance(time.Minute)
	a := athlete("Ana", "MALE", "1990-05-01")
	a["email"] = "ana.new@example.com"
	if r := env.Do(t, "PATCH", registrations+"/"+ticketOf(reg, 0), map[string]any{"athletes": []any{a}, "notifyEmailChange": true}, test); r.Status != 200 {
		t.Fatalf("update: %d %s", r.Status, r.Raw)
	}
	var queued int
	if err := env.Pool.QueryRow(t.Context(), `SELECT count(*) FROM mail_outbox`).Scan(&queued); err != nil || queued != 0 {
		t.Fatalf("%d test mails handed to the mailer (%v)", queued, err)
	}

	r := testMail(t, env, "", test)
	env.Valid(t, "organizerListTestMail", r)
	data, _ := r.Body["data"].([]any)
	if r.Status != 200 || r.Body["total"].(float64) != 2 || r.Body["limit"].(float64) != 50 || len(data) != 2 {
		t.Fatalf("test mail: %d %s", r.Status, r.Raw)
	}
	newest, older := data[0].(map[string]any), data[1].(map[string]any)
	if newest["to"] != "ana.new@example.com" || newest["orderId"] != reg["orderId"] || newest["createdAt"] != t0.Add(2*time.Minute).Format(time.RFC3339) ||
		older["to"] != "ana@example.com" || older["orderId"] != reg["orderId"] || older["subject"] != "Your registration receipts for Summer Throwdown" ||
		len(newest["id"].(string)) < 5 || newest["id"].(string)[:4] != domain.TestMailIDPrefix {
		t.Fatalf("test mail, newest first: %s", r.Raw)
	}
	page := testMail(t, env, "?limit=1&offset=1", test)
	if d := page.Body["data"].([]any); len(d) != 1 || d[0].(map[string]any)["id"] != older["id"] || page.Body["total"].(float64) != 2 {
		t.Fatalf("second page: %s", page.Raw)
	}
	for _, q := range []string{"?limit=0", "?limit=101", "?limit=x", "?offset=-1"} {
		wantError(t, testMail(t, env, q, test), 400)
	}
	wantCode(t, testMail(t, env, "", env.Secret(t, orgA)), domain.CodeTestKeyRequired)
	if r := testMail(t, env, "", env.TestSecret(t, orgB)); r.Body["total"].(float64) != 0 {
		t.Fatalf("another organizer's test mail: %s", r.Raw)
	}
	// The console reads the same list through auth.
	console := env.Do(t, "GET", "/internal/organizers/"+orgA+"/test/mail?limit=1", nil, env.Console(t, orgA))
	if console.Status != 200 || console.Body["total"].(float64) != 2 || len(console.Body["data"].([]any)) != 1 {
		t.Fatalf("console: %d %s", console.Status, console.Raw)
	}
	wantError(t, env.Do(t, "GET", "/internal/organizers/"+orgA+"/test/mail", nil, env.Console(t, orgB)), 403)
	wantError(t, env.Do(t, "GET", "/internal/organizers/"+orgA+"/test/mail", nil, env.Issuers.Token(t, "gateway", "registration", testPrincipal(orgA))), 403)

	// Kept 30 days.
	env.Clock.Advance(domain.TestMailKeep + time.Minute)
	if n, err := env.Service.PruneTestMail(t.Context()); err != nil || n != 2 {
		t.Fatalf("pruned %d, %v", n, err)
	}
}

// TestTestRoutesCallers: the test-only routes want a secret test key with their scope; the
// console's, auth's service token for the organizer of the path. Other routes are unchanged.
func TestTestRoutesCallers(t *testing.T) {
	env := start(t, regtest.Options{})
	noScope := env.Token(t, testPrincipalOfType(orgA, "secret"))
	for _, c := range []struct {
		method, path, token, code string
	}{
		{"GET", "/external/v1/organizer/test/mail", env.TestBrowser(t, orgA), "forbidden"},
		{"DELETE", wipe, env.TestBrowser(t, orgA), "forbidden"},
		{"GET", "/external/v1/organizer/test/mail", noScope, "forbidden"},
		{"DELETE", wipe, noScope, "forbidden"},
		{"DELETE", wipe, env.Secret(t, orgA), domain.CodeTestKeyRequired},
		{"DELETE", "/internal/organizers/" + orgA + "/test-data", env.Issuers.Token(t, "auth", "registration", secretOf(orgA)), "forbidden"},
		{"DELETE", "/internal/organizers/" + orgA + "/test-data", env.Issuers.Token(t, "checkout", "registration", testPrincipal(orgA)), "forbidden"},
	} {
		r := env.Do(t, c.method, c.path, nil, c.token)
		wantError(t, r, 403)
		wantCode(t, r, c.code)
	}
	wantCode(t, env.Do(t, "GET", "/external/v1/organizer/unknown", nil, env.Secret(t, orgA)), "route_not_found")
}

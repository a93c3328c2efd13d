package api_test

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/registration/internal/domain"
	"github.com/podiumhq/podium/services/registration/internal/regtest"
)

const wipe = "/external/v1/organizer/test-data"

func testPrincipal(org string) identity.Principal {
	return identity.Principal{OrganizerID: org, KeyID: "ses_" + org, KeyType: identity.Service}
}

// rowCounts counts the rows of each table of org in one mode.
func rowCounts(t *testing.T, env *regtest.Env, org string, livemode bool) string {
	t.Helper()
	var o, r, tk int
	err := env.Pool.QueryRow(t.Context(), `SELECT
		(SELECT count(*) FROM orders WHERE organizer_id = $1 AND livemode = $2),
		(SELECT count(*) FROM registrations WHERE organizer_id = $1 AND livemode = $2),
		(SELECT count(*) FROM tickets WHERE organizer_id = $1 AND livemode = $2)`, org, livemode).Scan(&o, &r, &tk)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("orders %d, registrations %d, tickets %d", o, r, tk)
}

// makeTestData makes, in org A's test mode, two organizer registrations (one of a team of
// two), a pending hold and one kept receipt mail.
func makeTestData(t *testing.T, env *regtest.Env, hold string) {
	t.Helper()
	test := env.TestSecret(t, orgA)
	env.Do(t, "POST", registrations, createBody("Tess"), test)
	team := map[string]any{"eventId": evtA, "categoryId": "cat_team", "teamName": "Duo", "athletes": []any{
		athlete("Tom", "MALE", "1990-01-01"), athlete("Tia", "FEMALE", "1991-01-01")},
		"customFields": []any{map[string]any{"fieldId": "fld_size", "value": "M"},
			map[string]any{"fieldId": "fld_shirt", "value": "S", "athleteIndex": 0}, map[string]any{"fieldId": "fld_shirt", "value": "M", "athleteIndex": 1}}}
	if r := env.Do(t, "POST", registrations, team, test); r.Status != 201 {
		t.Fatalf("team: %d %s", r.Status, r.Raw)
	}
	if r := env.Do(t, "POST", "/internal/holds", holdBody(hold, time.Now().Add(time.Hour), holdReg("Hal")), env.TestBrowser(t, orgA)); r.Status != 201 {
		t.Fatalf("test hold: %d %s", r.Status, r.Raw)
	}
	env.Do(t, "POST", "/external/v1/browser/events/"+evtA+"/registration-receipts/send", map[string]any{"email": "tess@example.com"}, env.TestBrowser(t, orgA))
}

func TestWipeDeletesOnlyTheOrganizersTestData(t *testing.T) {
	env := start(t, regtest.Options{})
	checkout := regtest.StartTestDataPeer(t, env, identity.Checkout, map[string]map[string]int64{orgA: {"checkoutSessions": 2}})
	webhooks := regtest.StartTestDataPeer(t, env, identity.Webhooks, map[string]map[string]int64{orgA: {"webhookEndpoints": 1, "webhookDeliveries": 3}})
	env.UsePeers(checkout, webhooks)
	live := env.Secret(t, orgA)
	env.Do(t, "POST", registrations, createBody("Ana"), live)
	env.Do(t, "POST", "/internal/holds", holdBody("l-1", time.Now().Add(time.Hour), holdReg("Lia")), env.Browser(t, orgA))
	makeTestData(t, env, "t-1")
	env.Do(t, "POST", registrations, createBody("Bob"), env.TestSecret(t, orgB))
	liveA, testB := rowCounts(t, env, orgA, true), rowCounts(t, env, orgB, false)
	if testA := rowCounts(t, env, orgA, false); testA != "orders 3, registrations 3, tickets 4" {
		t.Fatalf("test data made: %s", testA)
	}
	liveC, liveH := placesOf(t, env, "cat_rx", true)

	wantCode(t, env.Do(t, "DELETE", wipe, nil, live), domain.CodeTestKeyRequired)
	r := env.Do(t, "DELETE", wipe, nil, env.TestSecret(t, orgA))
	env.Valid(t, "organizerDeleteTestData", r)
	want := `{"deleted":{"checkoutSessions":2,"mail":1,"orders":3,"registrations":3,"tickets":4,"webhookDeliveries":3,"webhookEndpoints":1},"livemode":false}`
	if r.Status != 200 || canonical(t, r.Raw) != want {
		t.Fatalf("wipe: %d %s, want %s", r.Status, r.Raw, want)
	}
	if got := rowCounts(t, env, orgA, false); got != "orders 0, registrations 0, tickets 0" {
		t.Fatalf("test data left: %s", got)
	}
	if got := rowCounts(t, env, orgA, true); got != liveA {
		t.Fatalf("live data %s, was %s", got, liveA)
	}
	if got := rowCounts(t, env, orgB, false); got != testB {
		t.Fatalf("another organizer's test data %s, was %s", got, testB)
	}
	if c, h := placesOf(t, env, "cat_rx", true); c != liveC || h != liveH {
		t.Fatalf("live places %d/%d, were %d/%d", c, h, liveC, liveH)
	}
	for _, cat := range []string{"cat_rx", "cat_team"} {
		if c, h := placesOf(t, env, cat, false); c != 0 || h != 0 {
			t.Fatalf("test places of %s left: %d/%d", cat, c, h)
		}
	}
	if m := testMail(t, env, "", env.TestSecret(t, orgA)); m.Body["total"].(float64) != 0 {
		t.Fatalf("test mail left: %s", m.Raw)
	}
	// A hold id of the wiped data may be used again.
	if h := env.Do(t, "POST", "/internal/holds", holdBody("t-1", time.Now().Add(time.Hour), holdReg("Hal")), env.TestBrowser(t, orgA)); h.Status != 201 {
		t.Fatalf("hold after the wipe: %d %s", h.Status, h.Raw)
	}

	// The console wipes the same way; a second wipe finds nothing more, here or at the peers.
	again := env.Do(t, "DELETE", "/internal/organizers/"+orgA+"/test-data", nil, env.Console(t, orgA))
	want = `{"deleted":{"checkoutSessions":0,"mail":0,"orders":1,"registrations":1,"tickets":1,"webhookDeliveries":0,"webhookEndpoints":0},"livemode":false}`
	if again.Status != 200 || canonical(t, again.Raw) != want {
		t.Fatalf("console wipe: %d %s, want %s", again.Status, again.Raw, want)
	}
	r = env.Do(t, "DELETE", wipe, nil, env.TestSecret(t, orgA))
	want = `{"deleted":{"checkoutSessions":0,"mail":0,"orders":0,"registrations":0,"tickets":0,"webhookDeliveries":0,"webhookEndpoints":0},"livemode":false}`
	if r.Status != 200 || canonical(t, r.Raw) != want {
		t.Fatalf("second wipe: %d %s", r.Status, r.Raw)
	}
	if checkout.Calls() != 3 || webhooks.Calls() != 3 {
		t.Fatalf("peer calls: checkout %d, webhooks %d", checkout.Calls(), webhooks.Calls())
	}
	if got := rowCounts(t, env, orgA, true); got != liveA {
		t.Fatalf("live data after the wipes %s, was %s", got, liveA)
	}
	wantError(t, env.Do(t, "DELETE", "/internal/organizers/"+orgA+"/test-data", nil, env.Console(t, orgB)), 403)
}

func TestWipeWithAFailingPeerIsRetried(t *testing.T) {
	env := start(t, regtest.Options{})
	checkout := regtest.StartTestDataPeer(t, env, identity.Checkout, map[string]map[string]int64{orgA: {"checkoutSessions": 1}})
	webhooks := regtest.StartTestDataPeer(t, env, identity.Webhooks, nil)
	env.UsePeers(checkout, webhooks)
	env.Do(t, "POST", registrations, createBody("Tess"), env.TestSecret(t, orgA))
	webhooks.Fail(503)
	r := env.Do(t, "DELETE", wipe, nil, env.TestSecret(t, orgA))
	wantError(t, r, 503)
	if r.Header.Get("Retry-After") == "" {
		t.Fatalf("503 without Retry-After: %v", r.Header)
	}
	// The local deletion committed; the retry finishes the job.
	if got := rowCounts(t, env, orgA, false); got != "orders 0, registrations 0, tickets 0" {
		t.Fatalf("test data after the failed wipe: %s", got)
	}
	webhooks.Fail(0)
	r = env.Do(t, "DELETE", wipe, nil, env.TestSecret(t, orgA))
	if r.Status != 200 || r.Body["deleted"].(map[string]any)["orders"].(float64) != 0 {
		t.Fatalf("retried wipe: %d %s", r.Status, r.Raw)
	}
	if checkout.Calls() != 2 || webhooks.Calls() != 2 {
		t.Fatalf("peer calls: checkout %d, webhooks %d", checkout.Calls(), webhooks.Calls())
	}
}

// canonical is raw JSON with its object keys sorted.
func canonical(t *testing.T, raw []byte) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func testPrincipalOfType(org string, typ identity.KeyType) identity.Principal {
	return identity.Principal{OrganizerID: org, KeyID: "key_noscope_" + org, KeyType: typ, Test: true}
}

func secretOf(org string) identity.Principal {
	return identity.Principal{OrganizerID: org, KeyID: "key_" + org, KeyType: identity.Secret}
}

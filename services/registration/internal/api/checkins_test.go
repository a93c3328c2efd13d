package api_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/registration/internal/domain"
	"github.com/podiumhq/podium/services/registration/internal/regtest"
)

// scanAt is the fixed clock of the check-in tests and the scans' time.
var scanAt = time.Date(2027, 6, 12, 7, 45, 12, 0, time.UTC)

func scan(ticketID, nonce, device string) map[string]any {
	return map[string]any{"ticketId": ticketID, "nonce": nonce, "scannedAt": scanAt.Format(time.RFC3339), "device": device}
}

func checkIn(t *testing.T, env *regtest.Env, token string, body map[string]any) testkit.Response {
	t.Helper()
	r := env.Do(t, "POST", "/external/v1/organizer/check-ins", body, token)
	env.Valid(t, "organizerCheckIn", r)
	return r
}

func checkInOf(r testkit.Response) map[string]any { return r.Body["checkIn"].(map[string]any) }

// searchCheckIn returns the ticket ids of org A's tickets with the checkIn filter.
func searchCheckIn(t *testing.T, env *regtest.Env, filter string) map[string][]any {
	t.Helper()
	r := env.Do(t, "POST", "/external/v1/organizer/registrations/search", map[string]any{"checkIn": filter, "limit": 100}, env.Secret(t, orgA))
	env.Valid(t, "organizerSearchRegistrations", r)
	out := map[string][]any{}
	for _, row := range r.Body["data"].([]any) {
		tk := row.(map[string]any)["ticket"].(map[string]any)
		out[tk["ticketId"].(string)] = tk["checkedInAt"].([]any)
	}
	return out
}

func TestCheckInAScanItsRetryAndASecondDevice(t *testing.T) {
	env := start(t, regtest.Options{})
	env.Clock.Set(scanAt.Add(time.Minute))
	ticket := ticketOf(create(t, env, createBody("Ana")), 0)
	other := ticketOf(create(t, env, createBody("Bea")), 0)
	door := env.Scanner(t, orgA, false)

	first := checkIn(t, env, door, scan(ticket, "gate-a-0001", "gate-a"))
	if first.Status != 201 || first.Body["result"] != "accepted" || checkInOf(first)["device"] != "gate-a" || checkInOf(first)["scannedAt"] != "2027-06-12T07:45:12Z" {
		t.Fatalf("scan: %d %s", first.Status, first.Raw)
	}
	// A retried scan answers the first result unchanged, even after the ticket's state moved on.
	env.Clock.Advance(time.Minute)
	if again := checkIn(t, env, door, scan(ticket, "gate-a-0001", "gate-a")); again.Status != 201 || string(again.Raw) != string(first.Raw) {
		t.Fatalf("retry answered %d %s\nfirst %s", again.Status, again.Raw, first.Raw)
	}
	second := checkIn(t, env, door, scan(ticket, "gate-b-0001", "gate-b"))
	if second.Status != 201 || second.Body["result"] != "duplicate" || checkInOf(second)["checkInId"] != checkInOf(first)["checkInId"] ||
		!strings.Contains(second.Body["message"].(string), "already checked in at 2027-06-12T07:45:12Z by gate-a") {
		t.Fatalf("second device: %d %s", second.Status, second.Raw)
	}
	wantCode(t, checkIn(t, env, door, scan(other, "gate-a-0001", "gate-a")), domain.CodeNonceReused)

	// The search shows it; the ticket's checkedInAt carries the scan's time.
	if in := searchCheckIn(t, env, "checked-in"); len(in) != 1 || len(in[ticket]) != 1 || in[ticket][0] != "2027-06-12T07:45:12Z" {
		t.Fatalf("checked-in: %v", in)
	}
	if pending := searchCheckIn(t, env, "pending"); len(pending) != 1 || pending[other] == nil {
		t.Fatalf("pending: %v", pending)
	}
	// The announcement carries the answer's check-in.
	var n int
	if err := env.Pool.QueryRow(t.Context(), `SELECT count(*) FROM outbox WHERE key = $1 AND headers->>'ce_type' = $2`,
		checkInOf(first)["registrationId"], domain.EventTicketCheckedIn).Scan(&n); err != nil || n != 1 {
		t.Fatalf("%d ticket.checked_in events (%v), want 1", n, err)
	}
	if got := lastObject(t, env, domain.EventTicketCheckedIn, checkInOf(first)["registrationId"].(string)); fmt.Sprint(got) != fmt.Sprint(checkInOf(first)) {
		t.Fatalf("event object %v, answer %v", got, checkInOf(first))
	}
}

func TestCheckInRefusals(t *testing.T) {
	env := start(t, regtest.Options{})
	env.Clock.Set(scanAt)
	ticket := ticketOf(create(t, env, createBody("Ana")), 0)
	cancelled := ticketOf(create(t, env, createBody("Cy")), 0)
	if r := env.Do(t, "DELETE", "/external/v1/organizer/registrations/"+cancelled, nil, env.Secret(t, orgA)); r.Status != 200 {
		t.Fatalf("cancel: %s", r.Raw)
	}
	door := env.Scanner(t, orgA, false)

	// registrations:write does not check in; a scanner's key does nothing else.
	wantError(t, env.Do(t, "POST", "/external/v1/organizer/check-ins", scan(ticket, "scope-0001", "gate-a"), env.Secret(t, orgA)), 403)
	wantError(t, env.Do(t, "POST", "/external/v1/organizer/registrations/search", map[string]any{}, door), 403)
	// Another organizer's ticket, and the other mode's, are unknown.
	wantError(t, checkIn(t, env, env.Scanner(t, orgB, false), scan(ticket, "other-0001", "gate-a")), 404, "is not a ticket of this organizer")
	wantError(t, checkIn(t, env, env.Scanner(t, orgA, true), scan(ticket, "other-0002", "gate-a")), 404)
	r := checkIn(t, env, door, scan(cancelled, "cancel-0001", "gate-a"))
	wantError(t, r, 409, "is cancelled")
	wantCode(t, r, domain.CodeTicketCancelled)
	// Input rules beyond the schema.
	both := scan(ticket, "rules-0001", "gate-a")
	both["bibRaceNumber"] = 5
	wantError(t, checkIn(t, env, door, both), 400, "ticketId and bibRaceNumber cannot both be sent")
	late := scan(ticket, "rules-0002", "gate-a")
	late["scannedAt"] = scanAt.Add(time.Hour).Format(time.RFC3339)
	wantError(t, checkIn(t, env, door, late), 400, "scannedAt must not be later than")
	wantError(t, checkIn(t, env, door, map[string]any{"ticketId": ticket, "nonce": "x"}), 400, "nonce", "device", "scannedAt")
}

func TestCheckInATeamByTicketAndByBib(t *testing.T) {
	env := start(t, regtest.Options{})
	env.Clock.Set(scanAt)
	body := createBody("Ana")
	body["categoryId"], body["bibRaceNumber"] = "cat_team", 77
	body["athletes"] = []any{athlete("Ana", "FEMALE", "1990-01-01"), athlete("Bo", "MALE", "1990-01-01"), athlete("Cy", "MALE", "1990-01-01")}
	body["customFields"] = []any{map[string]any{"fieldId": "fld_size", "value": "M"},
		map[string]any{"fieldId": "fld_shirt", "value": "S", "athleteIndex": 0}, map[string]any{"fieldId": "fld_shirt", "value": "M", "athleteIndex": 1},
		map[string]any{"fieldId": "fld_shirt", "value": "M", "athleteIndex": 2}}
	reg := create(t, env, body)
	door := env.Scanner(t, orgA, false)

	one := checkIn(t, env, door, scan(ticketOf(reg, 1), "team-0001", "gate-a"))
	if one.Body["result"] != "accepted" || one.Body["team"] != nil {
		t.Fatalf("one athlete: %s", one.Raw)
	}
	whole := scan(ticketOf(reg, 0), "team-0002", "gate-a")
	whole["team"] = true
	r := checkIn(t, env, door, whole)
	team := r.Body["team"].([]any)
	results := map[string]string{}
	for _, o := range team {
		m := o.(map[string]any)
		results[m["ticketId"].(string)] = m["result"].(string)
	}
	if r.Body["result"] != "accepted" || len(team) != 3 || team[0].(map[string]any)["ticketId"] != ticketOf(reg, 0) ||
		results[ticketOf(reg, 0)] != "accepted" || results[ticketOf(reg, 1)] != "duplicate" || results[ticketOf(reg, 2)] != "accepted" {
		t.Fatalf("team: %s", r.Raw)
	}
	byBib := checkIn(t, env, door, map[string]any{"eventId": evtA, "bibRaceNumber": 77, "nonce": "team-0003", "scannedAt": scanAt.Format(time.RFC3339), "device": "gate-b"})
	if byBib.Body["result"] != "duplicate" || len(byBib.Body["team"].([]any)) != 3 {
		t.Fatalf("bib: %s", byBib.Raw)
	}
	wantError(t, checkIn(t, env, door, map[string]any{"eventId": evtA, "bibRaceNumber": 78, "nonce": "team-0004", "scannedAt": scanAt.Format(time.RFC3339), "device": "gate-b"}), 404, "bib 78")
	if in := searchCheckIn(t, env, "checked-in"); len(in) != 3 {
		t.Fatalf("checked-in: %v", in)
	}
}

func TestUndoACheckIn(t *testing.T) {
	env := start(t, regtest.Options{})
	env.Clock.Set(scanAt)
	ticket := ticketOf(create(t, env, createBody("Ana")), 0)
	door := env.Scanner(t, orgA, false)
	id := checkInOf(checkIn(t, env, door, scan(ticket, "undo-0001", "gate-a")))["checkInId"].(string)

	undo := func(token string) testkit.Response {
		r := env.Do(t, "DELETE", "/external/v1/organizer/check-ins/"+id, nil, token)
		env.Valid(t, "organizerUndoCheckIn", r)
		return r
	}
	wantError(t, undo(env.Scanner(t, orgB, false)), 404)
	wantError(t, undo(env.Scanner(t, orgA, true)), 404)
	env.Clock.Advance(time.Minute)
	r := undo(door)
	if r.Status != 200 || r.Body["undoneAt"] != scanAt.Add(time.Minute).Format(time.RFC3339) {
		t.Fatalf("undo: %d %s", r.Status, r.Raw)
	}
	if again := undo(door); again.Status != 200 || again.Body["undoneAt"] != r.Body["undoneAt"] {
		t.Fatalf("undo again: %s", again.Raw)
	}
	if pending := searchCheckIn(t, env, "pending"); len(pending) != 1 || len(pending[ticket]) != 0 {
		t.Fatalf("pending after undo: %v", pending)
	}
	re := checkIn(t, env, door, scan(ticket, "undo-0002", "gate-b"))
	if re.Body["result"] != "accepted" || checkInOf(re)["checkInId"] == id {
		t.Fatalf("scan after undo: %s", re.Raw)
	}
}

func TestCheckInAnOfflineBatch(t *testing.T) {
	env := start(t, regtest.Options{})
	env.Clock.Set(scanAt)
	a, b := ticketOf(create(t, env, createBody("Ana")), 0), ticketOf(create(t, env, createBody("Bea")), 0)
	cancelled := ticketOf(create(t, env, createBody("Cy")), 0)
	env.Do(t, "DELETE", "/external/v1/organizer/registrations/"+cancelled, nil, env.Secret(t, orgA))
	foreign := env.Do(t, "POST", "/external/v1/organizer/registrations", map[string]any{"eventId": evtB, "categoryId": "cat_rx", "teamName": "B",
		"athletes": []any{athlete("Zed", "MALE", "1990-01-01")}, "customFields": []any{map[string]any{"fieldId": "fld_size", "value": "M"}}}, env.Secret(t, orgB))
	door := env.Scanner(t, orgA, false)
	checkIn(t, env, door, scan(b, "online-0001", "gate-a"))

	noDevice := scan(a, "batch-0006", "")
	delete(noDevice, "device")
	scans := []any{scan(a, "batch-0001", "gate-c"), scan(b, "batch-0002", "gate-c"), scan(a, "batch-0003", "gate-c"),
		scan("tkt_00000000000000000000", "batch-0004", "gate-c"), scan(ticketOf(foreign.Body, 0), "batch-0005", "gate-c"),
		scan(cancelled, "batch-0007", "gate-c"), noDevice, scan(a, "online-0001", "gate-c")}
	r := env.Do(t, "POST", "/external/v1/organizer/check-ins/batch", map[string]any{"scans": scans}, door)
	env.Valid(t, "organizerCheckInBatch", r)
	if r.Status != 201 {
		t.Fatalf("batch: %d %s", r.Status, r.Raw)
	}
	var got []string
	for _, d := range r.Body["data"].([]any) {
		got = append(got, d.(map[string]any)["result"].(string))
	}
	want := []string{"accepted", "duplicate", "duplicate", "unknown", "unknown", "cancelled", "invalid", "invalid"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("results %v, want %v\n%s", got, want, r.Raw)
	}
	counts := r.Body["counts"].(map[string]any)
	if counts["accepted"] != 1.0 || counts["duplicate"] != 2.0 || counts["unknown"] != 2.0 || counts["cancelled"] != 1.0 || counts["invalid"] != 2.0 {
		t.Fatalf("counts %v", counts)
	}
	if msg := fmt.Sprint(r.Body["data"].([]any)[6]); !strings.Contains(msg, "device is required") {
		t.Fatalf("invalid scan: %s", msg)
	}
	// A retried batch answers every scan as it did.
	if again := env.Do(t, "POST", "/external/v1/organizer/check-ins/batch", map[string]any{"scans": scans}, door); string(again.Raw) != string(r.Raw) {
		t.Fatalf("retried batch answered\n%s\nfirst\n%s", again.Raw, r.Raw)
	}
	wantError(t, env.Do(t, "POST", "/external/v1/organizer/check-ins/batch", map[string]any{"scans": make([]any, 501)}, door), 400, "scans")
	// U+0000 is refused in any string of any body, so a batch holding it is refused whole.
	nul := env.Do(t, "POST", "/external/v1/organizer/check-ins/batch", map[string]any{"scans": []any{scan(a, "batch-0008", "gate\u0000c")}}, door)
	wantError(t, nul, 400, "scans[0].device must not contain the character U+0000")
}

// TestCheckInsKeepTheModesApart: a test key checks in test tickets with nonces of its own (the
// live one of the same nonce is another scan), and the wipe of test data deletes its check-ins
// and scans only.
func TestCheckInsKeepTheModesApart(t *testing.T) {
	env := start(t, regtest.Options{})
	env.Clock.Set(scanAt)
	env.UsePeers(regtest.StartTestDataPeer(t, env, identity.Checkout, nil), regtest.StartTestDataPeer(t, env, identity.Webhooks, nil))
	live := ticketOf(create(t, env, createBody("Ana")), 0)
	r := env.Do(t, "POST", "/external/v1/organizer/registrations", createBody("Tess"), env.TestSecret(t, orgA))
	test := ticketOf(r.Body, 0)

	if res := checkIn(t, env, env.Scanner(t, orgA, true), scan(test, "mode-0001", "gate-a")); res.Body["result"] != "accepted" || checkInOf(res)["livemode"] != false {
		t.Fatalf("test scan: %s", res.Raw)
	}
	if res := checkIn(t, env, env.Scanner(t, orgA, false), scan(live, "mode-0001", "gate-a")); res.Body["result"] != "accepted" || checkInOf(res)["livemode"] != true {
		t.Fatalf("live scan with the test scan's nonce: %s", res.Raw)
	}
	if w := env.Do(t, "DELETE", "/external/v1/organizer/test-data", nil, env.TestSecret(t, orgA)); w.Status != 200 {
		t.Fatalf("wipe: %s", w.Raw)
	}
	var checkIns, scans int
	if err := env.Pool.QueryRow(t.Context(), `SELECT (SELECT count(*) FROM check_ins WHERE NOT livemode), (SELECT count(*) FROM check_in_scans WHERE NOT livemode)`).Scan(&checkIns, &scans); err != nil {
		t.Fatal(err)
	}
	if checkIns != 0 || scans != 0 {
		t.Fatalf("after the wipe: %d test check-ins, %d test scans", checkIns, scans)
	}
	if in := searchCheckIn(t, env, "checked-in"); len(in) != 1 || in[live] == nil {
		t.Fatalf("live check-ins after the wipe: %v", in)
	}
}

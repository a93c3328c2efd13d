package api_test

import (
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/registration/internal/regtest"
)

func TestUpdateRegistration(t *testing.T) {
	env := start(t, regtest.Options{Mail: true})
	tok := env.Secret(t, orgA)
	body := createBody("Ana")
	body["categoryId"] = "cat_team"
	body["athletes"] = []any{athlete("Ana", "FEMALE", "1990-01-01"), athlete("Bo", "MALE", "1990-01-01"), athlete("Cy", "MALE", "1990-01-01")}
	body["customFields"] = []any{map[string]any{"fieldId": "fld_size", "value": "M"},
		map[string]any{"fieldId": "fld_shirt", "value": "S", "athleteIndex": 0}, map[string]any{"fieldId": "fld_shirt", "value": "M", "athleteIndex": 1},
		map[string]any{"fieldId": "fld_shirt", "value": "M", "athleteIndex": 2}}
	reg := create(t, env, body)
	t0, t1, t2 := ticketOf(reg, 0), ticketOf(reg, 1), ticketOf(reg, 2)
	patch := func(ticket string, b any) testkit.Response {
		r := env.Do(t, "PATCH", "/external/v1/organizer/registrations/"+ticket, b, tok)
		env.Valid(t, "organizerUpdateRegistration", r)
		return r
	}

	// Absent fields are untouched.
	r := patch(t1, map[string]any{"teamName": "Renamed", "note": "late"})
	if r.Status != 200 || r.Body["teamName"] != "Renamed" || r.Body["note"] != "late" || r.Body["club"] != "Box Ana" || len(r.Body["tickets"].([]any)) != 3 {
		t.Fatalf("update: %d %s", r.Status, r.Raw)
	}
	// A shorter athletes list cancels the removed positions; athlete 0's new e-mail is confirmed.
	a0 := athlete("Ana", "FEMALE", "1990-01-01")
	a0["email"] = "ana.new@example.com"
	r = patch(t0, map[string]any{"athletes": []any{a0, athlete("Bo", "MALE", "1990-01-01")}, "notifyEmailChange": true,
		"customFields": []any{map[string]any{"fieldId": "fld_size", "value": "M"},
			map[string]any{"fieldId": "fld_shirt", "value": "S", "athleteIndex": 0}, map[string]any{"fieldId": "fld_shirt", "value": "M", "athleteIndex": 1}}})
	if r.Status != 200 {
		t.Fatalf("shrink: %d %s", r.Status, r.Raw)
	}
	status := map[string]string{}
	for _, tk := range r.Body["tickets"].([]any) {
		m := tk.(map[string]any)
		status[m["ticketId"].(string)] = m["status"].(string)
	}
	if status[t0] != "ACTIVE" || status[t1] != "ACTIVE" || status[t2] != "CANCELLED" {
		t.Fatalf("tickets %v", status)
	}
	if m := regtest.WaitMail(t, env.Mail, "ana.new@example.com"); !strings.Contains(m.Subject, "e-mail was updated") || !strings.Contains(m.Body, "Renamed") {
		t.Fatalf("mail %+v", m)
	}
	// A cancelled ticket is searchable with ticketStatus CANCELLED.
	s := env.Do(t, "POST", "/external/v1/organizer/registrations/search", map[string]any{"ticketStatus": "CANCELLED"}, tok)
	env.Valid(t, "organizerSearchRegistrations", s)
	if s.Body["total"].(float64) != 1 {
		t.Fatalf("cancelled search %s", s.Raw)
	}
	// A longer list adds a ticket; beyond the team size is refused.
	four := []any{a0, athlete("Bo", "MALE", "1990-01-01"), athlete("Di", "MALE", "1990-01-01"), athlete("Ed", "MALE", "1990-01-01")}
	wantError(t, patch(t0, map[string]any{"athletes": four}), 422, "teams of 2 to 3 athletes, got 4")
	r = patch(t0, map[string]any{"athletes": four[:3], "customFields": []any{map[string]any{"fieldId": "fld_size", "value": "M"},
		map[string]any{"fieldId": "fld_shirt", "value": "S", "athleteIndex": 0}, map[string]any{"fieldId": "fld_shirt", "value": "M", "athleteIndex": 1},
		map[string]any{"fieldId": "fld_shirt", "value": "M", "athleteIndex": 2}}})
	if r.Status != 200 || len(r.Body["tickets"].([]any)) != 4 {
		t.Fatalf("grow: %d %s", r.Status, r.Raw)
	}
	// Bib numbers are unique within the event.
	other := create(t, env, createBody("Zed"))
	if r := patch(ticketOf(other, 0), map[string]any{"bibRaceNumber": 5}); r.Status != 200 {
		t.Fatalf("bib: %s", r.Raw)
	}
	wantError(t, patch(t0, map[string]any{"bibRaceNumber": 5}), 409, "bib number 5 is already taken")
	moved := patch(t0, map[string]any{"eventId": evtB})
	wantError(t, moved, 422, "cannot move to another event")
	if _, listed := moved.Body["message"].([]any); !listed {
		t.Fatalf("one broken rule is not answered as a list: %s", moved.Raw)
	}
}

func TestUpdateMovesPlacesBetweenCategories(t *testing.T) {
	env := start(t, regtest.Options{})
	tok := env.Secret(t, orgA)
	e := regtest.Event(evtA, orgA)
	e.Categories[2].Quota = intp(1) // cat_women: one place
	env.Catalog.Put(e)
	w := createBody("Wanda")
	w["categoryId"] = "cat_women"
	w["athletes"] = []any{athlete("Wanda", "FEMALE", "1990-01-01")}
	create(t, env, w)
	reg := create(t, env, func() map[string]any {
		b := createBody("Xena")
		b["athletes"] = []any{athlete("Xena", "FEMALE", "1990-01-01")}
		return b
	}())
	move := env.Do(t, "PATCH", "/external/v1/organizer/registrations/"+ticketOf(reg, 0), map[string]any{"categoryId": "cat_women"}, tok)
	wantError(t, move, 409, "category cat_women is sold out")
	ledger := func() map[string][2]int {
		rows, err := env.Pool.Query(t.Context(), `SELECT category_id, confirmed, held FROM places`)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string][2]int{}
		for rows.Next() {
			var c string
			var a, b int
			_ = rows.Scan(&c, &a, &b)
			out[c] = [2]int{a, b}
		}
		return out
	}
	if l := ledger(); l["cat_rx"][0] != 1 || l["cat_women"][0] != 1 {
		t.Fatalf("ledger after a refused move %v", l)
	}
	e.Categories[2].Quota = intp(2)
	env.Catalog.Put(e)
	move = env.Do(t, "PATCH", "/external/v1/organizer/registrations/"+ticketOf(reg, 0), map[string]any{"categoryId": "cat_women"}, tok)
	if move.Status != 200 || move.Body["categoryId"] != "cat_women" || move.Body["categoryName"] != "Women" {
		t.Fatalf("move: %d %s", move.Status, move.Raw)
	}
	if l := ledger(); l["cat_rx"][0] != 0 || l["cat_women"][0] != 2 {
		t.Fatalf("ledger after the move %v", l)
	}
}

func TestDeleteRegistration(t *testing.T) {
	env := start(t, regtest.Options{})
	tok := env.Secret(t, orgA)
	reg := create(t, env, createBody("Ana"))
	tk := ticketOf(reg, 0)
	var first map[string]any
	for i := range 2 {
		r := env.Do(t, "DELETE", "/external/v1/organizer/registrations/"+tk, nil, tok)
		env.Valid(t, "organizerDeleteRegistration", r)
		if r.Status != 200 || r.Body["result"] != "CANCELLED" || r.Body["cancelledAt"] == nil || r.Body["ticketStatus"] != "CANCELLED" {
			t.Fatalf("delete %d: %d %s", i, r.Status, r.Raw)
		}
		if i == 0 {
			first = r.Body
		} else if r.Body["cancelledAt"] != first["cancelledAt"] {
			t.Fatalf("repeat changed cancelledAt: %v vs %v", r.Body["cancelledAt"], first["cancelledAt"])
		}
	}
	for _, ts := range []string{"CANCELLED", "ALL"} {
		s := env.Do(t, "POST", "/external/v1/organizer/registrations/search", map[string]any{"ticketStatus": ts}, tok)
		if s.Body["total"].(float64) != 1 {
			t.Fatalf("%s search: %s", ts, s.Raw)
		}
	}
	if s := env.Do(t, "POST", "/external/v1/organizer/registrations/search", nil, tok); s.Body["total"].(float64) != 0 {
		t.Fatalf("default search still finds the cancelled ticket: %s", s.Raw)
	}
	wantError(t, env.Do(t, "PATCH", "/external/v1/organizer/registrations/"+tk, map[string]any{"note": "x"}, tok), 409, "cancelled")
}

func TestAnotherOrganizersIdsAreNotFound(t *testing.T) {
	env := start(t, regtest.Options{})
	reg := create(t, env, createBody("Ana"))
	tk := ticketOf(reg, 0)
	b := env.Secret(t, orgB)
	r := env.Do(t, "PATCH", "/external/v1/organizer/registrations/"+tk, map[string]any{"note": "x"}, b)
	wantError(t, r, 404, "ticket "+tk+" not found")
	env.Valid(t, "organizerUpdateRegistration", r)
	r = env.Do(t, "DELETE", "/external/v1/organizer/registrations/"+tk, nil, b)
	wantError(t, r, 404, "ticket "+tk+" not found")
	env.Valid(t, "organizerDeleteRegistration", r)
	for _, op := range []string{"lookup", "send"} {
		r = env.Do(t, "POST", "/external/v1/browser/events/"+evtA+"/registration-receipts/"+op, map[string]any{"email": "ana@example.com"}, env.Browser(t, orgB))
		wantError(t, r, 404, "event "+evtA+" not found")
	}
	b2 := createBody("Ana")
	r = env.Do(t, "POST", "/external/v1/organizer/registrations", b2, b) // evtA is org A's
	wantError(t, r, 404, "event "+evtA+" not found")
	s := env.Do(t, "POST", "/external/v1/organizer/registrations/search", map[string]any{"ticketId": tk}, b)
	if s.Body["total"].(float64) != 0 {
		t.Fatalf("org B found org A's ticket: %s", s.Raw)
	}
	wantError(t, env.Do(t, "DELETE", "/external/v1/organizer/registrations/tkt_unknown", nil, env.Secret(t, orgA)), 404, "ticket tkt_unknown not found")
	// The internal hold API is scoped the same way.
	svc := env.Browser(t, orgB)
	wantError(t, env.Do(t, "POST", "/internal/holds/"+reg["orderId"].(string)+"/release", map[string]any{"reason": "EXPIRED"}, svc), 404, "not found")
}

func TestSearchEndpoint(t *testing.T) {
	env := start(t, regtest.Options{})
	tok := env.Secret(t, orgA)
	for _, n := range []string{"Ana", "Bea", "Cid"} {
		create(t, env, createBody(n))
	}
	r := env.Do(t, "POST", "/external/v1/organizer/registrations/search", map[string]any{"search": "bea", "sortBy": "athlete-asc", "limit": 10}, tok)
	env.Valid(t, "organizerSearchRegistrations", r)
	data := r.Body["data"].([]any)
	if r.Status != http.StatusCreated || len(data) != 1 || r.Body["total"].(float64) != 1 || r.Body["limit"].(float64) != 10 {
		t.Fatalf("search: %d %s", r.Status, r.Raw)
	}
	row := data[0].(map[string]any)
	if row["athlete"].(map[string]any)["fullname"] != "Bea" || row["registration"].(map[string]any)["teamName"] != "Team Bea" || row["order"].(map[string]any)["status"] != "COMPLETED" {
		t.Fatalf("row %v", row)
	}
	r = env.Do(t, "POST", "/external/v1/organizer/registrations/search", nil, tok) // empty body
	if r.Body["total"].(float64) != 3 || r.Body["limit"].(float64) != 20 {
		t.Fatalf("empty body: %s", r.Raw)
	}
}

// TestLastPlacesRace sends 50 concurrent creates for the last 5 places of a category: exactly
// 5 succeed and 45 are told the category is sold out.
func TestLastPlacesRace(t *testing.T) {
	env := start(t, regtest.Options{MaxConns: 30})
	e := regtest.Event(evtA, orgA)
	e.Categories[0].Quota = intp(8)
	env.Catalog.Put(e)
	for i := range 3 {
		create(t, env, createBody("Early"+string(rune('A'+i))))
	}
	tok := env.Secret(t, orgA)
	var wg sync.WaitGroup
	var mu sync.Mutex
	count := map[int]int{}
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := env.Do(t, "POST", "/external/v1/organizer/registrations", createBody("Racer"+string(rune('a'+i%26))+string(rune('a'+i/26))), tok)
			if r.Status == 409 && !strings.Contains(string(r.Raw), "category cat_rx is sold out") {
				t.Errorf("409 message %s", r.Raw)
			}
			mu.Lock()
			count[r.Status]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	if count[201] != 5 || count[409] != 45 {
		t.Fatalf("statuses %v, want 5 x 201 and 45 x 409", count)
	}
	var confirmed, regs int
	_ = env.Pool.QueryRow(t.Context(), `SELECT confirmed FROM places WHERE category_id = 'cat_rx'`).Scan(&confirmed)
	_ = env.Pool.QueryRow(t.Context(), `SELECT count(*) FROM registrations WHERE category_id = 'cat_rx'`).Scan(&regs)
	if confirmed != 8 || regs != 8 {
		t.Fatalf("ledger %d, registrations %d", confirmed, regs)
	}
}

func intp(v int) *int { return &v }

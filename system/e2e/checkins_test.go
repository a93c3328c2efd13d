package e2e

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/podiumhq/podium/system/stack"
)

// scannedAt is the scans' time: the devices' clock, in the past of the service's.
const scannedAt = "2026-11-01T07:45:12Z"

type checkInView struct {
	CheckInID      string  `json:"checkInId"`
	TicketID       string  `json:"ticketId"`
	RegistrationID string  `json:"registrationId"`
	ScannedAt      string  `json:"scannedAt"`
	Device         string  `json:"device"`
	UndoneAt       *string `json:"undoneAt"`
	Livemode       bool    `json:"livemode"`
}

type scanResult struct {
	Nonce   string       `json:"nonce"`
	Result  string       `json:"result"`
	Message string       `json:"message"`
	CheckIn *checkInView `json:"checkIn"`
	Team    []struct {
		TicketID string `json:"ticketId"`
		Result   string `json:"result"`
	} `json:"team"`
}

func scanBody(ticketID, nonce, device string) map[string]any {
	return map[string]any{"ticketId": ticketID, "nonce": nonce, "scannedAt": scannedAt, "device": device}
}

// scanTicket sends one scan through the gateway and checks the answer against the document.
func scanTicket(t testing.TB, key string, body map[string]any) response {
	t.Helper()
	res := send(t, req{"POST", gw("/organizer/check-ins"), secret(key), body})
	conforms(t, "organizerCheckIn", res)
	return res
}

// checkedIn returns the checkIn search's tickets with their checkedInAt.
func checkedIn(t *testing.T, key, eventID, filter string) map[string][]string {
	t.Helper()
	res := send(t, req{"POST", gw("/organizer/registrations/search"), secret(key), map[string]any{"eventId": eventID, "checkIn": filter}})
	conforms(t, "organizerSearchRegistrations", res)
	rows := decode[struct {
		Data []struct {
			Ticket struct {
				TicketID    string   `json:"ticketId"`
				CheckedInAt []string `json:"checkedInAt"`
			} `json:"ticket"`
		} `json:"data"`
	}](t, res)
	out := map[string][]string{}
	for _, r := range rows.Data {
		out[r.Ticket.TicketID] = r.Ticket.CheckedInAt
	}
	return out
}

// TestCheckInsAtTheDoor checks in through the gateway with a door scanner's key (checkins:write
// only): a scan, its retry, a second device, a team, an offline batch, the search filter, an
// undo, the refusals, and the ticket.checked_in webhook.
func TestCheckInsAtTheDoor(t *testing.T) {
	a, b := newTenant(t), newTenant(t)
	door := newKey(t, a.org, stack.KeySpec{Type: "secret", Scopes: []string{"checkins:write"}})
	writer := newKey(t, a.org, stack.KeySpec{Type: "secret", Scopes: []string{"registrations:write"}})
	receiver, _ := startReceiver(t, a.secret.Key)
	ev := importEvent(t, a.org, eventDoc(category("open", nil), category("pairs", map[string]any{"teamSize": map[string]any{"min": 2, "max": 2}})))
	evB := importEvent(t, b.org, eventDoc(category("open", nil)))
	ana := createRegistration(t, a.secret.Key, registrationBody(ev, "open", "Ana", athlete("Ana Door", "FEMALE", "1990-01-01"))).Tickets[0].TicketID
	bea := createRegistration(t, a.secret.Key, registrationBody(ev, "open", "Bea", athlete("Bea Door", "FEMALE", "1990-01-01"))).Tickets[0].TicketID
	cy := createRegistration(t, a.secret.Key, registrationBody(ev, "open", "Cy", athlete("Cy Door", "MALE", "1990-01-01"))).Tickets[0].TicketID
	pair := createRegistration(t, a.secret.Key, registrationBody(ev, "pairs", "Pair", athlete("Di Door", "FEMALE", "1990-01-01"), athlete("Ed Door", "MALE", "1990-01-01")))
	foreign := createRegistration(t, b.secret.Key, registrationBody(evB, "open", "B", athlete("Fay Door", "FEMALE", "1990-01-01"))).Tickets[0].TicketID
	cancelled := createRegistration(t, a.secret.Key, registrationBody(ev, "open", "Gus", athlete("Gus Door", "MALE", "1990-01-01"))).Tickets[0].TicketID
	if res := send(t, req{"DELETE", gw("/organizer/registrations/" + cancelled), secret(a.secret.Key), nil}); res.status != 200 {
		t.Fatalf("cancel: %d %s", res.status, res.body)
	}

	first := scanTicket(t, door.Key, scanBody(ana, "e2e-gate-a-0001", "gate-a"))
	got := decode[scanResult](t, first)
	if first.status != 201 || got.Result != "accepted" || got.CheckIn.Device != "gate-a" || got.CheckIn.ScannedAt != scannedAt {
		t.Fatalf("scan: %d %s", first.status, first.body)
	}
	t.Run("a retried nonce answers the first result", func(t *testing.T) {
		if again := scanTicket(t, door.Key, scanBody(ana, "e2e-gate-a-0001", "gate-a")); again.status != 201 || string(again.body) != string(first.body) {
			t.Fatalf("retry: %d %s\nfirst %s", again.status, again.body, first.body)
		}
	})
	t.Run("a second device gets a duplicate with T and D", func(t *testing.T) {
		res := scanTicket(t, door.Key, scanBody(ana, "e2e-gate-b-0001", "gate-b"))
		dup := decode[scanResult](t, res)
		if res.status != 201 || dup.Result != "duplicate" || dup.CheckIn.CheckInID != got.CheckIn.CheckInID ||
			!strings.Contains(dup.Message, "already checked in at "+scannedAt+" by gate-a") {
			t.Fatalf("second device: %d %s", res.status, res.body)
		}
	})
	t.Run("a team is checked in at once", func(t *testing.T) {
		body := scanBody(pair.Tickets[1].TicketID, "e2e-gate-a-0002", "gate-a")
		body["team"] = true
		team := decode[scanResult](t, scanTicket(t, door.Key, body))
		if team.Result != "accepted" || len(team.Team) != 2 || team.Team[0].Result != "accepted" || team.Team[1].Result != "accepted" {
			t.Fatalf("team: %+v", team)
		}
	})
	t.Run("an offline batch is answered per scan", func(t *testing.T) {
		scans := []any{scanBody(bea, "e2e-gate-c-0001", "gate-c"), scanBody(ana, "e2e-gate-c-0002", "gate-c"),
			scanBody("tkt_00000000000000000000", "e2e-gate-c-0003", "gate-c"), scanBody(foreign, "e2e-gate-c-0004", "gate-c"),
			scanBody(cancelled, "e2e-gate-c-0005", "gate-c"), map[string]any{"ticketId": cy, "nonce": "e2e-gate-c-0006"}}
		res := send(t, req{"POST", gw("/organizer/check-ins/batch"), secret(door.Key), map[string]any{"scans": scans}})
		conforms(t, "organizerCheckInBatch", res)
		batch := decode[struct {
			Data   []scanResult   `json:"data"`
			Counts map[string]int `json:"counts"`
		}](t, res)
		var results []string
		for _, d := range batch.Data {
			results = append(results, d.Result)
		}
		if fmt.Sprint(results) != "[accepted duplicate unknown unknown cancelled invalid]" || batch.Counts["accepted"] != 1 || batch.Counts["invalid"] != 1 {
			t.Fatalf("batch: %d %s", res.status, res.body)
		}
	})
	t.Run("the search filter and checkedInAt show check-ins", func(t *testing.T) {
		in := checkedIn(t, a.secret.Key, ev.ID, "checked-in")
		if len(in) != 4 || len(in[ana]) != 1 || in[ana][0] != scannedAt || in[cy] != nil {
			t.Fatalf("checked-in: %v", in)
		}
		if pending := checkedIn(t, a.secret.Key, ev.ID, "pending"); len(pending) != 1 || pending[cy] == nil {
			t.Fatalf("pending: %v", pending)
		}
	})
	t.Run("an undo is the organizer's own", func(t *testing.T) {
		other := newKey(t, b.org, stack.KeySpec{Type: "secret", Scopes: []string{"checkins:write"}})
		res := send(t, req{"DELETE", gw("/organizer/check-ins/" + got.CheckIn.CheckInID), secret(other.Key), nil})
		wantError(t, res, 404, "check-in "+got.CheckIn.CheckInID+" not found")
		conforms(t, "organizerUndoCheckIn", res)
		res = send(t, req{"DELETE", gw("/organizer/check-ins/" + got.CheckIn.CheckInID), secret(door.Key), nil})
		conforms(t, "organizerUndoCheckIn", res)
		if undone := decode[checkInView](t, res); res.status != 200 || undone.UndoneAt == nil {
			t.Fatalf("undo: %d %s", res.status, res.body)
		}
		if pending := checkedIn(t, a.secret.Key, ev.ID, "pending"); len(pending) != 2 || pending[ana] == nil {
			t.Fatalf("pending after the undo: %v", pending)
		}
	})
	t.Run("refusals", func(t *testing.T) {
		wantCode(t, scanTicket(t, writer.Key, scanBody(cy, "e2e-refuse-0001", "gate-a")), 403, "scope_missing")
		wantCode(t, send(t, req{"POST", gw("/organizer/registrations/search"), secret(door.Key), map[string]any{}}), 403, "scope_missing")
		wantCode(t, send(t, req{"GET", gw("/organizer/events/" + ev.ID), secret(door.Key), nil}), 403, "scope_missing")
		wantError(t, scanTicket(t, door.Key, scanBody(foreign, "e2e-refuse-0002", "gate-a")), 404, "is not a ticket of this organizer")
		wantCode(t, scanTicket(t, door.Key, scanBody(cancelled, "e2e-refuse-0003", "gate-a")), 409, "ticket_cancelled")
		wantCode(t, scanTicket(t, door.Key, scanBody(cy, "e2e-gate-a-0001", "gate-a")), 409, "nonce_reused")
	})
	t.Run("ticket.checked_in reaches the organizer's endpoint", func(t *testing.T) {
		_, h := waitHook(t, receiver, "ticket.checked_in", got.CheckIn.CheckInID)
		if o := object[checkInView](t, h); o.TicketID != ana || o.Device != "gate-a" || o.ScannedAt != scannedAt || !h.Data.Livemode {
			t.Fatalf("webhook object %s", h.Data.Object)
		}
	})
}

// TestFiftyDevicesCheckInTenTicketsOnce: 50 devices, each with its scanner key and address,
// scan the same 10 tickets at once through the gateway (each device every ticket, 500 scans):
// 10 are accepted, 490 are duplicates, and the search finds the 10 tickets checked in.
func TestFiftyDevicesCheckInTenTicketsOnce(t *testing.T) {
	a := newTenant(t)
	doors := make([]map[string]string, 50)
	for d := range doors {
		doors[d] = secret(newKey(t, a.org, stack.KeySpec{Type: "secret", Scopes: []string{"checkins:write"}}).Key)
		doors[d]["X-Forwarded-For"] = newVisitorIP()
	}
	ev := importEvent(t, a.org, eventDoc(category("open", nil)))
	tickets := make([]string, 10)
	for i := range tickets {
		tickets[i] = createRegistration(t, a.secret.Key, registrationBody(ev, "open", fmt.Sprint("Team ", i), athlete(fmt.Sprint("Racer ", i), "MALE", "1990-01-01"))).Tickets[0].TicketID
	}
	var mu sync.Mutex
	results := map[string]int{}
	start := make(chan struct{})
	var wg sync.WaitGroup
	for d := range doors {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			for i := range tickets {
				ticket := tickets[(i+d)%len(tickets)]
				res := send(t, req{"POST", gw("/organizer/check-ins"), doors[d], scanBody(ticket, fmt.Sprintf("e2e-%02d-%s", d, ticket), fmt.Sprintf("gate-%02d", d))})
				if res.status != 201 {
					t.Errorf("device %d on %s: %d %s", d, ticket, res.status, res.body)
					continue
				}
				mu.Lock()
				results[decode[scanResult](t, res).Result]++
				mu.Unlock()
			}
		}()
	}
	close(start)
	wg.Wait()
	if results["accepted"] != 10 || results["duplicate"] != 490 {
		t.Fatalf("results %v, want 10 accepted and 490 duplicate", results)
	}
	if in := checkedIn(t, a.secret.Key, ev.ID, "checked-in"); len(in) != 10 {
		t.Fatalf("%d tickets checked in, want 10", len(in))
	}
}

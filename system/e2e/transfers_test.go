package e2e

import (
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/podiumhq/podium/system/stack"
)

// transferred is the part of a transfer's answer the tests read: the registration with its
// tickets' history and pending waivers.
type transferred struct {
	RegistrationID string `json:"registrationId"`
	Tickets        []struct {
		ticket
		PendingWaivers []struct {
			WaiverID string `json:"waiverId"`
			Title    string `json:"title"`
		} `json:"pendingWaivers"`
		Transfers []struct {
			TransferID string `json:"transferId"`
			From       struct {
				AthleteID string `json:"athleteId"`
				Fullname  string `json:"fullname"`
			} `json:"from"`
			To struct {
				AthleteID string `json:"athleteId"`
				Fullname  string `json:"fullname"`
			} `json:"to"`
			TransferredAt string `json:"transferredAt"`
		} `json:"transfers"`
	} `json:"tickets"`
}

// transfer gives ticketID to a with key through the gateway; the answer conforms to the document.
func transfer(t testing.TB, key, ticketID string, a map[string]any) response {
	t.Helper()
	res := send(t, req{"POST", gw("/organizer/registrations/" + ticketID + "/transfer"), secret(key), map[string]any{"athlete": a}})
	conforms(t, "organizerTransferRegistration", res)
	return res
}

// transferEvent is an event with a women's category of 10 places for adults, a MIXED pairs
// category, and two waivers: one for everyone, one for minors.
func transferEvent(extra map[string]any) map[string]any {
	doc := eventDoc(
		category("women", map[string]any{"gender": "FEMALE", "quota": 10, "ageMin": 18}),
		category("pairs", map[string]any{"gender": "MIXED", "teamSize": map[string]any{"min": 2, "max": 2}}),
	)
	doc["waivers"] = []any{
		map[string]any{"key": "liability", "title": "Liability", "text": "I take part at my own risk."},
		map[string]any{"key": "minors", "title": "Parental consent", "text": "A parent signs for a minor.", "forMinors": true},
	}
	for k, v := range extra {
		doc[k] = v
	}
	return doc
}

func TestTransferGivesThePlaceToAnotherAthlete(t *testing.T) {
	a, b := newTenant(t), newTenant(t)
	receiver, _ := startReceiver(t, a.secret.Key)
	ev := importEvent(t, a.org, transferEvent(nil))
	reg := createRegistration(t, a.secret.Key, registrationBody(ev, "women", "Ana's place", athlete("Ana Giver", "FEMALE", "1990-01-01")))
	tk := reg.Tickets[0]
	registered(t, a, ev, "women", 1)

	t.Run("refusals", func(t *testing.T) {
		wantCode(t, transfer(t, a.secret.Key, tk.TicketID, athlete("Max Man", "MALE", "1990-01-01")), 422, "athlete_gender_not_allowed")
		wantCode(t, transfer(t, a.secret.Key, tk.TicketID, athlete("Teo Young", "FEMALE", "2012-01-01")), 422, "athlete_age_not_allowed")
		reader := newKey(t, a.org, stack.KeySpec{Type: "secret", Scopes: []string{"registrations:read"}})
		wantCode(t, transfer(t, reader.Key, tk.TicketID, athlete("Bea Taker", "FEMALE", "1992-03-04")), 403, "scope_missing")
		wantError(t, transfer(t, b.secret.Key, tk.TicketID, athlete("Bea Taker", "FEMALE", "1992-03-04")), 404, "ticket "+tk.TicketID+" not found")
	})

	res := transfer(t, a.secret.Key, tk.TicketID, athlete("Bea Taker", "FEMALE", "1992-03-04"))
	if res.status != 200 {
		t.Fatalf("transfer: %d %s", res.status, res.body)
	}
	got := decode[transferred](t, res).Tickets[0]
	if got.TicketID != tk.TicketID || got.Status != "ACTIVE" || got.AthleteID == tk.AthleteID || got.Athlete.Fullname != "Bea Taker" {
		t.Fatalf("ticket after the transfer: %s", res.body)
	}
	if len(got.Transfers) != 1 || got.Transfers[0].From.AthleteID != tk.AthleteID || got.Transfers[0].From.Fullname != "Ana Giver" ||
		got.Transfers[0].To.AthleteID != got.AthleteID || got.Transfers[0].TransferredAt == "" {
		t.Fatalf("history: %s", res.body)
	}
	if len(got.PendingWaivers) != 1 || got.PendingWaivers[0].Title != "Liability" {
		t.Fatalf("pending waivers (an adult signs the liability waiver, not the minors' one): %s", res.body)
	}

	t.Run("a retry answers the same and records nothing more", func(t *testing.T) {
		again := decode[transferred](t, transfer(t, a.secret.Key, tk.TicketID, athlete("Bea Taker", "FEMALE", "1992-03-04"))).Tickets[0]
		if again.AthleteID != got.AthleteID || len(again.Transfers) != 1 {
			t.Fatalf("retry: %+v", again)
		}
	})
	t.Run("the search shows the new athlete and the place count did not move", func(t *testing.T) {
		found := searchRegistrations(t, a.secret.Key, map[string]any{"ticketId": tk.TicketID})
		if found.Total != 1 || found.Data[0].Ticket.AthleteID != got.AthleteID || found.Data[0].Ticket.Athlete.Fullname != "Bea Taker" {
			t.Fatalf("search: %+v", found)
		}
		registered(t, a, ev, "women", 1)
	})
	t.Run("registration.transferred is delivered", func(t *testing.T) {
		_, h := waitHook(t, receiver, "registration.transferred", reg.RegistrationID)
		var obj transferred
		if err := json.Unmarshal(h.Data.Object, &obj); err != nil || obj.Tickets[0].AthleteID != got.AthleteID || len(obj.Tickets[0].Transfers) != 1 {
			t.Fatalf("webhook object %s (%v)", h.Data.Object, err)
		}
	})
}

func TestTransferRefusesAClosedEventACancelledTicketAndABrokenTeam(t *testing.T) {
	a := newTenant(t)
	closed := importEvent(t, a.org, transferEvent(map[string]any{"transfersUntil": "2026-01-01T00:00:00Z"}))
	detail := send(t, a.organizer("GET", "/events/"+closed.ID, nil))
	conforms(t, "organizerGetEvent", detail)
	if until := decode[struct{ TransfersUntil string }](t, detail).TransfersUntil; until != "2026-01-01T00:00:00Z" {
		t.Fatalf("transfersUntil in the organizer event detail: %q", until)
	}
	late := createRegistration(t, a.secret.Key, registrationBody(closed, "women", "Late", athlete("Cai Late", "FEMALE", "1990-01-01")))
	wantCode(t, transfer(t, a.secret.Key, late.Tickets[0].TicketID, athlete("Dee Late", "FEMALE", "1990-01-01")), 409, "transfer_deadline_passed")

	ev := importEvent(t, a.org, transferEvent(nil))
	gone := createRegistration(t, a.secret.Key, registrationBody(ev, "women", "Gone", athlete("Eli Gone", "FEMALE", "1990-01-01")))
	if res := send(t, req{"DELETE", gw("/organizer/registrations/" + gone.Tickets[0].TicketID), secret(a.secret.Key), nil}); res.status != 200 {
		t.Fatalf("cancel: %d %s", res.status, res.body)
	}
	wantCode(t, transfer(t, a.secret.Key, gone.Tickets[0].TicketID, athlete("Fay New", "FEMALE", "1990-01-01")), 409, "ticket_cancelled")

	pair := createRegistration(t, a.secret.Key, registrationBody(ev, "pairs", "Pair", athlete("Gus Pair", "MALE", "1990-01-01"), athlete("Hil Pair", "FEMALE", "1990-01-01")))
	wantCode(t, transfer(t, a.secret.Key, pair.Tickets[1].TicketID, athlete("Ian Pair", "MALE", "1990-01-01")), 422, "team_composition_invalid")
}

// TestTransfersRacingSearchesNeverShowThePlaceFree transfers one ticket again and again while
// searches read it and the pricing card counts it: no answer ever shows the ticket gone or the
// place free.
func TestTransfersRacingSearchesNeverShowThePlaceFree(t *testing.T) {
	a := newTenant(t)
	ev := importEvent(t, a.org, transferEvent(nil))
	reg := createRegistration(t, a.secret.Key, registrationBody(ev, "women", "Raced", athlete("Jo Start", "FEMALE", "1990-01-01")))
	id := reg.Tickets[0].TicketID
	registered(t, a, ev, "women", 1)
	const transfers, readers = 8, 8
	var wg sync.WaitGroup
	failures := make(chan string, transfers+2*readers)
	start := make(chan struct{})
	for i := range transfers {
		wg.Go(func() {
			<-start
			if res := transfer(t, a.secret.Key, id, athlete(fmt.Sprintf("Taker %c", 'A'+i), "FEMALE", "1990-01-01")); res.status != 200 {
				failures <- fmt.Sprintf("transfer %d: %d %s", i, res.status, res.body)
			}
		})
	}
	for i := range readers {
		wg.Go(func() {
			<-start
			for range 3 {
				if s := searchRegistrations(t, a.secret.Key, map[string]any{"eventId": ev.ID}); s.Total != 1 || s.Data[0].Ticket.TicketID != id || s.Data[0].Ticket.Status != "ACTIVE" {
					failures <- fmt.Sprintf("reader %d: search %+v", i, s)
				}
				res := send(t, req{"GET", gw("/organizer/events/" + ev.ID + "/pricing-cards"), secret(a.secret.Key), nil})
				for _, c := range decode[pricingCards](t, res).Cards {
					if c.CategoryID == ev.Category("women") && (c.RegisteredCount != 1 || *c.AvailableCount != 9) {
						failures <- fmt.Sprintf("reader %d: card %+v", i, c)
					}
				}
			}
		})
	}
	close(start)
	wg.Wait()
	close(failures)
	for f := range failures {
		t.Error(f)
	}
	res := send(t, req{"POST", gw("/organizer/registrations/search"), secret(a.secret.Key), map[string]any{"ticketId": id}})
	var rows struct {
		Data []struct {
			Ticket struct {
				Transfers []json.RawMessage `json:"transfers"`
			} `json:"ticket"`
		} `json:"data"`
	}
	if err := json.Unmarshal(res.body, &rows); err != nil || len(rows.Data) != 1 || len(rows.Data[0].Ticket.Transfers) != transfers {
		t.Fatalf("after the race: %s", res.body)
	}
}

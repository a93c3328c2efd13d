package e2e

import (
	"testing"
	"time"
)

// TestRegistrationsMoveThePricingCards creates, moves and cancels registrations through the
// gateway and follows the registered counts on the catalog's pricing cards, which learn them
// from registration's Kafka events.
func TestRegistrationsMoveThePricingCards(t *testing.T) {
	o := newTenant(t)
	ev := importEvent(t, o.org, eventDoc(
		category("rx", map[string]any{"quota": 10}),
		category("teams", map[string]any{"teamSize": map[string]any{"min": 2, "max": 3}}),
	))
	orgCards := "/organizer/events/" + ev.ID + "/pricing-cards"
	if c := registered(t, o, ev, "rx", 0); *c.Quota != 10 || *c.AvailableCount != 10 || c.HeldCount != 0 {
		t.Fatalf("fresh card %+v", c)
	}

	var rx []registration
	for _, name := range []string{"Ana Ruiz", "Bea Gil", "Carla Sanz"} {
		rx = append(rx, createRegistration(t, o.secret.Key, registrationBody(ev, "rx", "Team "+name, athlete(name, "FEMALE", "1990-01-01"))))
	}
	team := createRegistration(t, o.secret.Key, registrationBody(ev, "teams", "Trio",
		athlete("Dario Ruiz", "MALE", "1991-02-03"), athlete("Elena Gil", "FEMALE", "1992-03-04"), athlete("Fran Sanz", "MALE", "1993-04-05")))
	if rx[0].Order.Status != "COMPLETED" || len(team.Tickets) != 3 || team.Tickets[2].Status != "ACTIVE" {
		t.Fatalf("created %+v and %+v", rx[0], team)
	}

	if c := registered(t, o, ev, "rx", 3); *c.AvailableCount != 7 || c.HeldCount != 0 {
		t.Fatalf("rx card after three creates %+v", c)
	}
	// One place per registration: a team of three is one entry.
	registered(t, o, ev, "teams", 1)
	// The public card says the same (the event is published).
	waitForCard(t, browser(o.publishable.Key, site), "/browser/events/"+ev.ID+"/pricing-cards", ev.Category("rx"),
		func(c card) bool { return c.RegisteredCount == 3 && *c.AvailableCount == 7 })

	// Moving a registration takes a place in the new category and frees the old one.
	res := send(t, req{"PATCH", gw("/organizer/registrations/" + rx[2].Tickets[0].TicketID), secret(o.secret.Key), map[string]any{"categoryId": ev.Category("teams"),
		"athletes": []any{athlete("Carla Sanz", "FEMALE", "1990-01-01"), athlete("Gala Sanz", "FEMALE", "1994-05-06")}}})
	if moved := decode[registration](t, res); res.status != 200 || moved.CategoryID != ev.Category("teams") || len(moved.Tickets) != 2 {
		t.Fatalf("move: %d %s", res.status, res.body)
	}
	conforms(t, "organizerUpdateRegistration", res)
	registered(t, o, ev, "rx", 2)
	registered(t, o, ev, "teams", 2)

	// Cancelling frees the place; cancelling any ticket of a team cancels the whole entry.
	for _, tk := range []string{rx[0].Tickets[0].TicketID, team.Tickets[1].TicketID} {
		res := send(t, req{"DELETE", gw("/organizer/registrations/" + tk), secret(o.secret.Key), nil})
		if res.status != 200 {
			t.Fatalf("DELETE %s: %d %s", tk, res.status, res.body)
		}
		conforms(t, "organizerDeleteRegistration", res)
	}
	if c := registered(t, o, ev, "rx", 1); *c.AvailableCount != 9 {
		t.Fatalf("rx card after the cancel %+v", c)
	}
	registered(t, o, ev, "teams", 1)
	if c := waitForCard(t, secret(o.secret.Key), orgCards, ev.Category("teams"), func(c card) bool { return c.RegisteredCount == 1 }); c.Quota != nil || c.AvailableCount != nil {
		t.Fatalf("an unlimited category shows a quota: %+v", c)
	}
}

// TestDeleteCancelsAPaidRegistration deletes a manual (COMPLETED) registration: every ticket
// is CANCELLED, found with ticketStatus CANCELLED or ALL and no longer by default, the delete
// repeats with the same answer and the bib is free again.
func TestDeleteCancelsAPaidRegistration(t *testing.T) {
	o := newTenant(t)
	ev := importEvent(t, o.org, eventDoc(category("pairs", map[string]any{"teamSize": map[string]any{"min": 2, "max": 2}})))
	body := registrationBody(ev, "pairs", "Pair", athlete("Hugo Ramos", "MALE", "1988-08-08"), athlete("Irene Ramos", "FEMALE", "1989-09-09"))
	body["bibRaceNumber"] = 42
	reg := createRegistration(t, o.secret.Key, body)
	keep := createRegistration(t, o.secret.Key, registrationBody(ev, "pairs", "Other pair", athlete("Jorge Ortiz", "MALE", "1980-01-01"), athlete("Lucia Ortiz", "FEMALE", "1981-01-01")))
	before := time.Now().UTC().Add(-time.Minute).Format(time.RFC3339)

	res := send(t, req{"DELETE", gw("/organizer/registrations/" + reg.Tickets[1].TicketID), secret(o.secret.Key), nil})
	type deleted struct {
		TicketID, RegistrationID, Result, TicketStatus, CancelledAt string
	}
	d := decode[deleted](t, res)
	if res.status != 200 || d.TicketID != reg.Tickets[1].TicketID || d.RegistrationID != reg.RegistrationID ||
		d.Result != "CANCELLED" || d.TicketStatus != "CANCELLED" || d.CancelledAt == "" {
		t.Fatalf("DELETE: %d %s", res.status, res.body)
	}
	conforms(t, "organizerDeleteRegistration", res)
	again := send(t, req{"DELETE", gw("/organizer/registrations/" + reg.Tickets[0].TicketID), secret(o.secret.Key), nil})
	if a := decode[deleted](t, again); again.status != 200 || a.Result != "CANCELLED" || a.CancelledAt != d.CancelledAt {
		t.Fatalf("repeated DELETE: %d %s, first cancelledAt %s", again.status, again.body, d.CancelledAt)
	}

	scoped := func(extra map[string]any) map[string]any {
		extra["eventId"] = ev.ID
		extra["sortBy"] = "athlete-asc"
		return extra
	}
	cancelled := []string{reg.Tickets[0].TicketID, reg.Tickets[1].TicketID}
	kept := []string{keep.Tickets[0].TicketID, keep.Tickets[1].TicketID}
	for _, c := range []struct {
		name string
		body map[string]any
		want []string
	}{
		{"default is ACTIVE", scoped(map[string]any{}), kept},
		{"ACTIVE", scoped(map[string]any{"ticketStatus": "ACTIVE"}), kept},
		{"CANCELLED", scoped(map[string]any{"ticketStatus": "CANCELLED"}), cancelled},
		{"ALL", scoped(map[string]any{"ticketStatus": "ALL"}), []string{cancelled[0], cancelled[1], kept[0], kept[1]}},
		{"cancelled since a minute ago", scoped(map[string]any{"ticketStatus": "ALL", "cancelledFrom": []string{before}}), cancelled},
		{"cancelled before a minute ago", scoped(map[string]any{"ticketStatus": "ALL", "cancelledTo": []string{before}}), nil},
		{"a cancelled ticket by id", scoped(map[string]any{"ticketStatus": "CANCELLED", "ticketId": cancelled[0]}), cancelled[:1]},
		{"the order stays COMPLETED", scoped(map[string]any{"ticketStatus": "CANCELLED", "status": "COMPLETED"}), cancelled},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := searchRegistrations(t, o.secret.Key, c.body)
			wantTickets(t, got, c.want)
			for _, row := range got.Data {
				if cancelledRow := row.Ticket.CancelledAt != nil; cancelledRow != (row.Ticket.Status == "CANCELLED") {
					t.Fatalf("ticket %s is %s with cancelledAt %v", row.Ticket.TicketID, row.Ticket.Status, row.Ticket.CancelledAt)
				}
			}
		})
	}

	res = send(t, req{"PATCH", gw("/organizer/registrations/" + reg.Tickets[0].TicketID), secret(o.secret.Key), map[string]any{"teamName": "Renamed"}})
	wantError(t, res, 409, "cancelled")
	wantCode(t, res, 409, "registration_cancelled")
	conforms(t, "organizerUpdateRegistration", res)
	// The cancelled registration's bib is free again.
	reuse := registrationBody(ev, "pairs", "New pair", athlete("Mario Sanz", "MALE", "1985-05-05"), athlete("Nuria Sanz", "FEMALE", "1986-06-06"))
	reuse["bibRaceNumber"] = 42
	createRegistration(t, o.secret.Key, reuse)
	res = send(t, req{"POST", gw("/organizer/registrations"), secret(o.secret.Key), reuse})
	wantError(t, res, 409, "bib number 42 is already taken in this event")
	wantCode(t, res, 409, "bib_taken")
	conforms(t, "organizerCreateRegistration", res)
}

// wantTickets checks a search result holds exactly these tickets in this order.
func wantTickets(t *testing.T, got searchResult, want []string) {
	t.Helper()
	ids := got.ticketIDs()
	if got.Total != len(want) || len(ids) != len(want) {
		t.Fatalf("got %d tickets (total %d) %v, want %v", len(ids), got.Total, ids, want)
	}
	for i := range want {
		if ids[i] != want[i] {
			t.Fatalf("got %v, want %v", ids, want)
		}
	}
}

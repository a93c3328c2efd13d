package e2e

import (
	"testing"
)

// TestAnotherOrganizersIdsAreNotFound uses organizer B's ids with organizer A's keys on every
// registration endpoint that takes an id: each is a 404 in the standard format, exactly like
// an unknown id, and B's data is untouched.
func TestAnotherOrganizersIdsAreNotFound(t *testing.T) {
	a, b := newTenant(t), newTenant(t)
	evA := importEvent(t, a.org, eventDoc(category("open", nil)))
	evB := importEvent(t, b.org, eventDoc(category("open", nil)))
	const addr = "tenant.b@example.com"
	athleteB := athlete("Bea Tenant", "FEMALE", "1990-01-01")
	athleteB["email"] = addr
	regB := createRegistration(t, b.secret.Key, registrationBody(evB, "open", "Team B", athleteB))
	tkB, catB := regB.Tickets[0].TicketID, evB.Category("open")
	registered(t, b, evB, "open", 1)

	create := func(eventID, categoryID string) response {
		body := registrationBody(evA, "open", "Intruder", athlete("Ana Tenant", "FEMALE", "1990-01-01"))
		body["eventId"], body["categoryId"] = eventID, categoryID
		return send(t, req{"POST", gw("/organizer/registrations"), secret(a.secret.Key), body})
	}
	patch := func(ticketID string) response {
		return send(t, req{"PATCH", gw("/organizer/registrations/" + ticketID), secret(a.secret.Key), map[string]any{"teamName": "Taken over"}})
	}
	remove := func(ticketID string) response {
		return send(t, req{"DELETE", gw("/organizer/registrations/" + ticketID), secret(a.secret.Key), nil})
	}
	for _, c := range []struct {
		name    string
		op      string
		res     func() response
		message string
	}{
		{"create with B's event and category", "organizerCreateRegistration", func() response { return create(evB.ID, catB) }, "event " + evB.ID + " not found"},
		{"create with A's event and B's category", "organizerCreateRegistration", func() response { return create(evA.ID, catB) }, "category " + catB + " in event " + evA.ID + " not found"},
		{"create with an unknown event", "organizerCreateRegistration", func() response { return create("evt_unknown", catB) }, "event evt_unknown not found"},
		{"update B's ticket", "organizerUpdateRegistration", func() response { return patch(tkB) }, "ticket " + tkB + " not found"},
		{"update an unknown ticket", "organizerUpdateRegistration", func() response { return patch("tkt_unknown") }, "ticket tkt_unknown not found"},
		{"delete B's ticket", "organizerDeleteRegistration", func() response { return remove(tkB) }, "ticket " + tkB + " not found"},
		{"delete an unknown ticket", "organizerDeleteRegistration", func() response { return remove("tkt_unknown") }, "ticket tkt_unknown not found"},
		{"look up receipts of B's event", "browserLookupReceipts", func() response { return receipts(t, a.publishable.Key, evB.ID, "lookup", addr) }, "event " + evB.ID + " not found"},
		{"send receipts of B's event", "browserSendReceipts", func() response { return receipts(t, a.publishable.Key, evB.ID, "send", addr) }, "event " + evB.ID + " not found"},
		{"receipts of an unknown event", "browserLookupReceipts", func() response { return receipts(t, a.publishable.Key, "evt_unknown", "lookup", addr) }, "event evt_unknown not found"},
		{"pricing cards of B's event", "organizerGetPricingCards", func() response {
			return send(t, req{"GET", gw("/organizer/events/" + evB.ID + "/pricing-cards"), secret(a.secret.Key), nil})
		}, "event " + evB.ID + " not found"},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := c.res()
			wantError(t, res, 404, c.message)
			conforms(t, c.op, res)
		})
	}

	t.Run("A's searches do not see B's tickets", func(t *testing.T) {
		for _, f := range []map[string]any{{"ticketId": tkB}, {"eventId": evB.ID, "ticketStatus": "ALL"}, {"search": "Bea Tenant"}, {"athleteId": regB.Tickets[0].AthleteID}} {
			if got := searchRegistrations(t, a.secret.Key, f); got.Total != 0 {
				t.Fatalf("search %v with A's key found %d of B's tickets", f, got.Total)
			}
		}
	})
	t.Run("B's registration is untouched", func(t *testing.T) {
		got := searchRegistrations(t, b.secret.Key, map[string]any{"eventId": evB.ID, "ticketStatus": "ALL"})
		if got.Total != 1 || got.Data[0].Ticket.TicketID != tkB || got.Data[0].Ticket.Status != "ACTIVE" || got.Data[0].Registration.TeamName != "Team B" {
			t.Fatalf("B's tickets %+v", got)
		}
		registered(t, b, evB, "open", 1)
		registered(t, a, evA, "open", 0)
		res := receipts(t, b.publishable.Key, evB.ID, "lookup", addr)
		if got := decode[struct{ Count int }](t, res); res.status != 201 || got.Count != 1 {
			t.Fatalf("B's own receipt lookup: %d %s", res.status, res.body)
		}
		if n := len(mailsTo(addr)); n != 0 {
			t.Fatalf("A's send reached B's athlete: %d mails", n)
		}
	})
}

package e2e

import (
	"slices"
	"testing"

	"github.com/podiumhq/podium/system/stack"
)

// TestSearchFindsCreatedTicketsByEveryFilter creates registrations through the gateway and
// finds them with each filter and sort of the search, alone and combined.
func TestSearchFindsCreatedTicketsByEveryFilter(t *testing.T) {
	o := newTenant(t)
	doc := eventDoc(category("open", nil), category("masters", map[string]any{"ageMin": 40}))
	doc["formFields"] = []any{map[string]any{"key": "size", "label": "Box size", "type": "select", "options": []string{"S", "M", "L"}, "appliesTo": "TEAM"}}
	doc["supplements"] = []any{
		map[string]any{"key": "parking", "name": "Parking", "price": 800},
		map[string]any{"key": "tee", "name": "T-shirt", "per": "ATHLETE", "options": []any{
			map[string]any{"key": "m", "name": "M", "price": 1500}, map[string]any{"key": "l", "name": "L", "price": 1500}}},
	}
	ev := importEvent(t, o.org, doc)
	other := importEvent(t, o.org, eventDoc(category("open", nil)))
	size := func(v string) []any { return []any{map[string]any{"fieldId": ev.FormFields[0].ID, "value": v}} }
	parking, tee := supplement(t, ev, "parking"), supplement(t, ev, "tee")

	jose := registrationBody(ev, "open", "Los Naranjos", athlete("José García", "MALE", "1990-05-01"))
	jose["club"], jose["bibRaceNumber"], jose["customFields"] = "CrossFit Valencia", 7, size("M")
	jose["checkedInAt"] = []string{"2027-06-12T08:00:00Z"}
	jose["selectedSupplementIds"] = []string{parking.ID}
	ana := registrationBody(ev, "open", "Las Rápidas", athlete("Ana Martínez", "FEMALE", "1995-03-10"))
	ana["club"], ana["bibRaceNumber"], ana["customFields"] = "Box Madrid", 3, size("L")
	ana["supplementSelections"] = []any{map[string]any{"supplementId": tee.ID, "optionId": option(t, tee, "l")}}
	luis := registrationBody(ev, "masters", "Veteranos", athlete("Luis Garcés", "MALE", "1980-01-01"))
	luis["club"], luis["customFields"] = "Box Madrid", size("S")

	j := createRegistration(t, o.secret.Key, jose).Tickets[0]
	a := createRegistration(t, o.secret.Key, ana).Tickets[0]
	l := createRegistration(t, o.secret.Key, luis).Tickets[0]
	p := createRegistration(t, o.secret.Key, registrationBody(other, "open", "Otro", athlete("Pedro Garcia", "MALE", "1990-01-01"))).Tickets[0]
	if j.Age != 37 || a.Age != 32 || l.Age != 47 {
		t.Fatalf("ages on 2027-06-12: %d %d %d", j.Age, a.Age, l.Age)
	}
	jID, aID, lID := j.TicketID, a.TicketID, l.TicketID
	byCategory := []string{lID} // "Category masters" sorts first, ties by ticket id
	byCategory = append(byCategory, sortedIDs(jID, aID)...)

	in := func(f map[string]any) map[string]any { f["eventId"] = ev.ID; return f }
	for _, c := range []struct {
		name string
		body map[string]any
		want []string
	}{
		{"text ignores accents and case, across events", map[string]any{"search": "GARCIA", "sortBy": "athlete-asc"}, []string{jID, p.TicketID}},
		{"text and event", in(map[string]any{"search": "garcia"}), []string{jID}},
		{"text over the club", in(map[string]any{"search": "box madrid", "sortBy": "athlete-asc"}), []string{aID, lID}},
		{"text over the team", in(map[string]any{"search": "rápidas"}), []string{aID}},
		{"text is a ticket id", map[string]any{"search": aID}, []string{aID}},
		{"event", map[string]any{"eventId": other.ID}, []string{p.TicketID}},
		{"category", map[string]any{"categoryId": ev.Category("masters")}, []string{lID}},
		{"ticket", map[string]any{"ticketId": jID}, []string{jID}},
		{"athlete", map[string]any{"athleteId": a.AthleteID}, []string{aID}},
		{"gender", in(map[string]any{"gender": "FEMALE"}), []string{aID}},
		{"age range", in(map[string]any{"ageMin": 33, "ageMax": 45}), []string{jID}},
		{"age from", in(map[string]any{"ageMin": 40}), []string{lID}},
		{"checked in", in(map[string]any{"checkIn": "checked-in"}), []string{jID}},
		{"not checked in", in(map[string]any{"checkIn": "pending", "sortBy": "athlete-asc"}), []string{aID, lID}},
		{"order status", in(map[string]any{"status": "COMPLETED", "sortBy": "createdAt-asc"}), []string{jID, aID, lID}},
		{"no pending orders", in(map[string]any{"status": "PENDING"}), nil},
		{"participant data", in(map[string]any{"participantDataStatus": "READY", "sortBy": "athlete-asc"}), []string{aID, jID, lID}},
		{"no pending participants", in(map[string]any{"participantDataStatus": "PENDING_PARTICIPANTS"}), nil},
		{"custom field equals", in(map[string]any{"customFieldFilters": []any{map[string]any{"fieldId": ev.FormFields[0].ID, "operator": "equals", "value": "M"}}}), []string{jID}},
		{"custom field has-any", in(map[string]any{"sortBy": "athlete-asc", "customFieldFilters": []any{
			map[string]any{"fieldId": ev.FormFields[0].ID, "operator": "has-any", "value": []string{"S", "L"}}}}), []string{aID, lID}},
		{"single-price supplement", in(map[string]any{"supplementFilters": []any{map[string]any{"supplementId": parking.ID}}}), []string{jID}},
		{"supplement option", in(map[string]any{"supplementFilters": []any{map[string]any{"supplementId": tee.ID, "optionIds": []string{option(t, tee, "l")}}}}), []string{aID}},
		{"newest first by default", in(map[string]any{}), []string{lID, aID, jID}},
		{"oldest first", in(map[string]any{"sortBy": "createdAt-asc"}), []string{jID, aID, lID}},
		{"by bib, none last", in(map[string]any{"sortBy": "bib-asc"}), []string{aID, jID, lID}},
		{"by category name", in(map[string]any{"sortBy": "category-asc"}), byCategory},
		{"by amount (manual orders are 0)", in(map[string]any{"sortBy": "amount-desc"}), sortedIDs(jID, aID, lID)},
		{"text, two filters and a sort", in(map[string]any{"search": "box", "gender": "MALE", "ageMin": 40, "sortBy": "athlete-asc"}), []string{lID}},
	} {
		t.Run(c.name, func(t *testing.T) { wantTickets(t, searchRegistrations(t, o.secret.Key, c.body), c.want) })
	}

	t.Run("paging keeps the total", func(t *testing.T) {
		got := searchRegistrations(t, o.secret.Key, in(map[string]any{"sortBy": "createdAt-asc", "limit": 1, "offset": 1}))
		if got.Total != 3 || got.Limit != 1 || got.Offset != 1 || len(got.Data) != 1 || got.Data[0].Ticket.TicketID != aID {
			t.Fatalf("page %+v", got)
		}
	})
	t.Run("rows carry the registration and the order", func(t *testing.T) {
		row := searchRegistrations(t, o.secret.Key, map[string]any{"ticketId": jID}).Data[0]
		if row.Registration.TeamName != "Los Naranjos" || row.Registration.CategoryID != ev.Category("open") || row.Order.Status != "COMPLETED" ||
			row.Ticket.Athlete.Fullname != "José García" || row.Ticket.Status != "ACTIVE" {
			t.Fatalf("row %+v", row)
		}
	})
	t.Run("search bounds are checked at the edge", func(t *testing.T) {
		long := make([]byte, 101)
		for i := range long {
			long[i] = 'a'
		}
		res := send(t, req{"POST", gw("/organizer/registrations/search"), secret(o.secret.Key), map[string]any{"search": string(long), "limit": 101, "ageMin": -1, "ticketStatus": "GONE"}})
		wantProblems(t, "organizerSearchRegistrations", res,
			"search must be at most 100 characters long", "limit must be at most 100", "ageMin must be at least 0", "ticketStatus must be one of")
	})
}

func supplement(t *testing.T, ev stack.Event, key string) stack.Supplement {
	t.Helper()
	for _, s := range ev.Supplements {
		if s.Key == key {
			return s
		}
	}
	t.Fatalf("event %s has no supplement %s", ev.ID, key)
	return stack.Supplement{}
}

func option(t *testing.T, s stack.Supplement, key string) string {
	t.Helper()
	for _, o := range s.Options {
		if o.Key == key {
			return o.ID
		}
	}
	t.Fatalf("supplement %s has no option %s", s.ID, key)
	return ""
}

// sortedIDs returns ids in ascending order, the search's final tiebreak.
func sortedIDs(ids ...string) []string {
	out := slices.Clone(ids)
	slices.Sort(out)
	return out
}

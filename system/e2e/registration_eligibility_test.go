package e2e

import (
	"testing"
)

// TestEligibilityRules creates registrations through the gateway against each category rule
// of the catalog's event (team size, gender, age on the event's start date): a broken rule is
// a 422 naming the athlete or the team, a registration at the rule's edge is created.
func TestEligibilityRules(t *testing.T) {
	o := newTenant(t)
	size := func(lo, hi int) map[string]any {
		return map[string]any{"teamSize": map[string]any{"min": lo, "max": hi}}
	}
	june := importEvent(t, o.org, eventDoc( // starts on 12 June 2027
		category("solo", nil),
		category("pairs", size(2, 2)),
		category("squads", size(2, 4)),
		category("men", map[string]any{"gender": "MALE", "teamSize": map[string]any{"min": 1, "max": 2}}),
		category("women", map[string]any{"gender": "FEMALE"}),
		category("mixed", map[string]any{"gender": "MIXED", "teamSize": map[string]any{"min": 2, "max": 3}}),
		category("adults", map[string]any{"ageMin": 18, "ageMax": 39}),
		category("seniors", map[string]any{"gender": "MALE", "ageMin": 18, "teamSize": map[string]any{"min": 1, "max": 2}}),
	))
	leapDoc := eventDoc(category("over19", map[string]any{"ageMin": 19}), category("under19", map[string]any{"ageMax": 18}))
	leapDoc["startDate"], leapDoc["endDate"] = "2027-02-28", "2027-02-28"
	feb := importEvent(t, o.org, leapDoc)
	marchDoc := eventDoc(category("over19", map[string]any{"ageMin": 19}))
	marchDoc["startDate"], marchDoc["endDate"] = "2027-03-01", "2027-03-01"
	march := importEvent(t, o.org, marchDoc)

	m := func(name string) map[string]any { return athlete(name, "MALE", "1990-01-01") }
	f := func(name string) map[string]any { return athlete(name, "FEMALE", "1990-01-01") }
	born := func(date string) map[string]any { return athlete("Born "+date, "MALE", date) }
	cat := func(key string) string { return june.Category(key) }
	cases := []struct {
		name     string
		body     map[string]any
		problems []string // none: created
	}{
		{"individual with two athletes", registrationBody(june, "solo", "T", m("A"), m("B")), []string{"athletes: the category " + cat("solo") + " takes one athlete per registration, got 2"}},
		{"exact size, one short", registrationBody(june, "pairs", "T", m("A")), []string{"the category " + cat("pairs") + " takes teams of exactly 2 athletes, got 1"}},
		{"exact size, one over", registrationBody(june, "pairs", "T", m("A"), m("B"), m("C")), []string{"takes teams of exactly 2 athletes, got 3"}},
		{"exact size", registrationBody(june, "pairs", "T", m("A"), f("B")), nil},
		{"range, below", registrationBody(june, "squads", "T", m("A")), []string{"the category " + cat("squads") + " takes teams of 2 to 4 athletes, got 1"}},
		{"range, above", registrationBody(june, "squads", "T", m("A"), m("B"), m("C"), m("D"), m("E")), []string{"takes teams of 2 to 4 athletes, got 5"}},
		{"range, at the top", registrationBody(june, "squads", "T", m("A"), m("B"), f("C"), f("D")), nil},
		{"MALE category, a woman", registrationBody(june, "men", "T", f("A")), []string{"athletes[0].gender: the category " + cat("men") + " is for MALE athletes only"}},
		{"MALE category, the second athlete named", registrationBody(june, "men", "T", m("A"), f("B")), []string{"athletes[1].gender: the category " + cat("men") + " is for MALE athletes only"}},
		{"MALE category", registrationBody(june, "men", "T", m("A"), m("B")), nil},
		{"FEMALE category, a man", registrationBody(june, "women", "T", m("A")), []string{"athletes[0].gender: the category " + cat("women") + " is for FEMALE athletes only"}},
		{"FEMALE category", registrationBody(june, "women", "T", f("A")), nil},
		{"MIXED, men only", registrationBody(june, "mixed", "T", m("A"), m("B")), []string{"athletes: the category " + cat("mixed") + " is MIXED: a team needs at least one MALE and one FEMALE athlete"}},
		{"MIXED, women only", registrationBody(june, "mixed", "T", f("A"), f("B"), f("C")), []string{"is MIXED"}},
		{"MIXED", registrationBody(june, "mixed", "T", m("A"), f("B")), nil},
		{"OPEN takes anyone", registrationBody(june, "solo", "T", f("A")), nil},
		{"a day too young", registrationBody(june, "adults", "T", born("2009-06-13")), []string{"athletes[0].birthDate: athlete is 17 on 2027-06-12, the category requires at least 18"}},
		{"18 on the start date", registrationBody(june, "adults", "T", born("2009-06-12")), nil},
		{"a day too old", registrationBody(june, "adults", "T", born("1987-06-12")), []string{"athletes[0].birthDate: athlete is 40 on 2027-06-12, the category allows at most 39"}},
		{"39 on the start date", registrationBody(june, "adults", "T", born("1987-06-13")), nil},
		{"leap-day birthday not yet reached on 28 February", registrationBody(feb, "over19", "T", born("2008-02-29")),
			[]string{"athletes[0].birthDate: athlete is 18 on 2027-02-28, the category requires at least 19"}},
		{"leap-day birthday counts as still 18 on 28 February", registrationBody(feb, "under19", "T", born("2008-02-29")), nil},
		{"born 28 February", registrationBody(feb, "over19", "T", born("2008-02-28")), nil},
		{"leap-day birthday reached on 1 March", registrationBody(march, "over19", "T", born("2008-02-29")), nil},
		{"every broken rule at once", registrationBody(june, "seniors", "T", m("A"), f("B"), born("2010-01-01")), []string{
			"takes teams of 1 to 2 athletes, got 3", "athletes[1].gender: the category " + cat("seniors") + " is for MALE athletes only",
			"athletes[2].birthDate: athlete is 17 on 2027-06-12, the category requires at least 18"}},
	}
	created := 0
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := send(t, req{"POST", gw("/organizer/registrations"), secret(o.secret.Key), c.body})
			if len(c.problems) == 0 {
				if res.status != 201 {
					t.Fatalf("refused: %d %s", res.status, res.body)
				}
				created++
				return
			}
			for _, p := range c.problems {
				wantError(t, res, 422, p)
			}
			conforms(t, "organizerCreateRegistration", res)
			if b := decode[errorBody](t, res); !isList(b.Message) {
				t.Fatalf("message is not a list of problems: %s", res.body)
			}
		})
	}
	// Only the accepted registrations exist (one ticket each for the individual ones).
	for _, ev := range []string{june.ID, feb.ID, march.ID} {
		got := searchRegistrations(t, o.secret.Key, map[string]any{"eventId": ev, "ticketStatus": "ALL", "limit": 100})
		regs := map[string]bool{}
		for _, r := range got.Data {
			regs[r.Registration.RegistrationID] = true
		}
		created -= len(regs)
	}
	if created != 0 {
		t.Fatalf("%d more registrations accepted than stored", created)
	}
}

// TestAgeIsStoredAsOnTheStartDate reads the age the ticket carries: whole years on the event's
// start date, a leap-day birthday counting on 1 March in common years.
func TestAgeIsStoredAsOnTheStartDate(t *testing.T) {
	o := newTenant(t)
	doc := eventDoc(category("open", nil))
	doc["startDate"], doc["endDate"] = "2027-02-28", "2027-03-01"
	ev := importEvent(t, o.org, doc)
	for birth, age := range map[string]int{"2008-02-29": 18, "2008-02-28": 19, "2008-03-01": 18, "1990-02-28": 37} {
		reg := createRegistration(t, o.secret.Key, registrationBody(ev, "open", "T", athlete("Born "+birth, "FEMALE", birth)))
		if reg.Tickets[0].Age != age {
			t.Fatalf("born %s: age %d on 2027-02-28, want %d", birth, reg.Tickets[0].Age, age)
		}
	}
	if got := searchRegistrations(t, o.secret.Key, map[string]any{"eventId": ev.ID, "ageMin": 18, "ageMax": 18}); got.Total != 2 {
		t.Fatalf("%d tickets aged 18, want 2", got.Total)
	}
}

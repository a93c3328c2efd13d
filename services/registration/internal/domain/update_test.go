package domain_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/services/registration/internal/domain"
)

// registeredAt is when the tests' registrations are made and changed: any instant would do.
var registeredAt = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

func teamRegistration(athletes ...domain.Athlete) domain.Registration {
	e := event()
	c, _ := e.Category("cat_men")
	o := domain.Order{ID: "ord_1", OrganizerID: "org_1", Status: domain.OrderCompleted}
	return domain.NewRegistration(o, e, c, domain.RegistrationInput{CategoryID: "cat_men", TeamName: "T", Athletes: athletes, CustomFields: size}, registeredAt)
}

func named(name, email string) domain.Athlete {
	a := man("1990-01-01")
	a.Fullname, a.Email = name, email
	return a
}

func TestPlanUpdateAthletesByPosition(t *testing.T) {
	now := registeredAt.Add(time.Hour)
	cur := teamRegistration(named("A", "a@x.io"), named("B", "b@x.io"), named("C", "c@x.io"))
	ids := []string{cur.Tickets[0].ID, cur.Tickets[1].ID, cur.Tickets[2].ID}

	t.Run("index i updates athlete i and keeps its ticket", func(t *testing.T) {
		p, err := domain.PlanUpdate(event(), cur, domain.Patch{AthletesSet: true, Athletes: []domain.Athlete{named("A2", "a@x.io"), named("B", "b@x.io"), named("C2", "c@x.io")}}, now)
		if err != nil {
			t.Fatal(err)
		}
		got := p.Registration.ActiveTickets()
		if len(got) != 3 || got[0].ID != ids[0] || got[0].Athlete.Fullname != "A2" || got[2].ID != ids[2] || got[2].Athlete.Fullname != "C2" || len(p.NewTickets) != 0 {
			t.Fatalf("tickets %+v", got)
		}
	})
	t.Run("a shorter list cancels the removed positions", func(t *testing.T) {
		p, err := domain.PlanUpdate(event(), cur, domain.Patch{AthletesSet: true, Athletes: []domain.Athlete{named("A", "a@x.io")}}, now)
		if err != nil {
			t.Fatal(err)
		}
		if n := len(p.Registration.ActiveTickets()); n != 1 || len(p.Registration.Tickets) != 3 {
			t.Fatalf("%d active of %d", n, len(p.Registration.Tickets))
		}
		for _, tk := range p.Registration.Tickets[1:] {
			if tk.Status != domain.TicketCancelled || tk.CancelledAt == nil || !tk.CancelledAt.Equal(now) {
				t.Fatalf("removed ticket %+v", tk)
			}
		}
	})
	t.Run("a longer list adds tickets within the team size", func(t *testing.T) {
		p, err := domain.PlanUpdate(event(), cur, domain.Patch{AthletesSet: true, Athletes: []domain.Athlete{named("A", "a@x.io"), named("B", "b@x.io"), named("C", "c@x.io"), named("D", "d@x.io")}}, now)
		if err != nil {
			t.Fatal(err)
		}
		if len(p.NewTickets) != 1 || p.Registration.Tickets[p.NewTickets[0]].Athlete.Fullname != "D" || p.Registration.Tickets[3].Position != 3 {
			t.Fatalf("new %v tickets %+v", p.NewTickets, p.Registration.Tickets)
		}
		_, err = domain.PlanUpdate(event(), cur, domain.Patch{AthletesSet: true, Athletes: []domain.Athlete{named("A", ""), named("B", ""), named("C", ""), named("D", ""), named("E", "")}}, now)
		if f, ok := fault.Of(err); !ok || f.Kind != fault.Unprocessable || !strings.Contains(f.Problems[0], "teams of 1 to 4 athletes, got 5") {
			t.Fatalf("beyond the team size: %v", err)
		}
	})
	t.Run("an e-mail change of athlete 0 is reported only when asked", func(t *testing.T) {
		list := []domain.Athlete{named("A", "new@x.io"), named("B", "b@x.io"), named("C", "c@x.io")}
		p, _ := domain.PlanUpdate(event(), cur, domain.Patch{AthletesSet: true, Athletes: list, NotifyEmailChange: true}, now)
		if p.EmailChangedTo != "new@x.io" {
			t.Fatalf("EmailChangedTo %q", p.EmailChangedTo)
		}
		p, _ = domain.PlanUpdate(event(), cur, domain.Patch{AthletesSet: true, Athletes: list}, now)
		if p.EmailChangedTo != "" {
			t.Fatalf("EmailChangedTo %q without notifyEmailChange", p.EmailChangedTo)
		}
	})
	t.Run("added athletes fill pending participant places first", func(t *testing.T) {
		pending := cur
		pending.PendingParticipants = 1
		if pending.ParticipantStatus() != domain.ParticipantsPending {
			t.Fatal("not pending")
		}
		p, err := domain.PlanUpdate(event(), pending, domain.Patch{AthletesSet: true, Athletes: []domain.Athlete{named("A", ""), named("B", ""), named("C", ""), named("D", "")}}, now)
		if err != nil {
			t.Fatal(err)
		}
		if p.Registration.PendingParticipants != 0 || p.Registration.ParticipantStatus() != domain.ParticipantsReady {
			t.Fatalf("pending %d", p.Registration.PendingParticipants)
		}
	})
	t.Run("absent fields are untouched; category moves are planned", func(t *testing.T) {
		team := "New name"
		cat := "cat_solo"
		p, err := domain.PlanUpdate(event(), cur, domain.Patch{TeamName: &team}, now)
		if err != nil || p.Registration.TeamName != team || p.Registration.CategoryID != "cat_men" || len(p.Registration.ActiveTickets()) != 3 || p.MovedFrom != "" {
			t.Fatalf("%+v %v", p, err)
		}
		_, err = domain.PlanUpdate(event(), cur, domain.Patch{CategoryID: &cat}, now)
		if !errors.Is(err, fault.ErrUnprocessable) { // three athletes do not fit a solo category
			t.Fatalf("move of a team to a solo category: %v", err)
		}
		p, err = domain.PlanUpdate(event(), cur, domain.Patch{CategoryID: &cat, AthletesSet: true, Athletes: []domain.Athlete{named("A", "")}}, now)
		if err != nil || p.MovedFrom != "cat_men" || p.Registration.CategoryID != "cat_solo" {
			t.Fatalf("move: %+v %v", p, err)
		}
		other := "evt_2"
		if _, err := domain.PlanUpdate(event(), cur, domain.Patch{EventID: &other}, now); !errors.Is(err, fault.ErrUnprocessable) {
			t.Fatalf("move to another event: %v", err)
		}
		missing := "cat_nope"
		if _, err := domain.PlanUpdate(event(), cur, domain.Patch{CategoryID: &missing}, now); !errors.Is(err, fault.ErrNotFound) {
			t.Fatalf("unknown category: %v", err)
		}
	})
	t.Run("a cancelled registration cannot change", func(t *testing.T) {
		c := cur
		c.CancelledAt = &now
		if _, err := domain.PlanUpdate(event(), c, domain.Patch{}, now); !errors.Is(err, fault.ErrConflict) {
			t.Fatalf("got %v", err)
		}
	})
}

func TestSearchNormalize(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	q, err := domain.SearchRequest{}.Normalize()
	if err != nil || q.Limit != 20 || q.Offset != 0 || q.Sort != domain.SortCreatedDesc || q.TicketStatus != "ACTIVE" {
		t.Fatalf("defaults %+v %v", q, err)
	}
	q, err = domain.SearchRequest{
		CancelledFrom: []string{"2026-01-01T00:00:00Z", "2026-03-01T00:00:00Z", "2026-02-01T00:00:00Z"},
		CancelledTo:   []string{"2026-12-01T00:00:00Z", "2026-10-01T00:00:00+02:00"},
		Limit:         f(100), Offset: f(40),
	}.Normalize()
	if err != nil || q.CancelledFrom.Format(time.RFC3339) != "2026-03-01T00:00:00Z" || q.CancelledTo.Format(time.RFC3339) != "2026-09-30T22:00:00Z" || q.Limit != 100 || q.Offset != 40 {
		t.Fatalf("bounds %+v %v", q, err)
	}
	_, err = domain.SearchRequest{
		Limit: f(0), Offset: f(-1), Gender: "X", SortBy: "nope", TicketStatus: "GONE", AgeMin: f(121), AgeMax: f(30.5), CheckIn: "maybe",
		CancelledFrom: []string{"2026-01-01"}, CustomFieldFilters: []domain.CustomFieldFilter{{FieldID: "f", Operator: "like"}, {FieldID: "f", Operator: "contains", Value: 3.0}},
		SupplementFilters: []domain.SupplementFilter{{SupplementID: "", OptionIDs: []string{}}},
	}.Normalize()
	ve, ok := fault.Of(err)
	if !ok || ve.Kind != fault.Invalid {
		t.Fatalf("got %v", err)
	}
	all := strings.Join(ve.Problems, "\n")
	for _, w := range []string{"limit:", "offset:", "gender:", "sortBy:", "ticketStatus:", "ageMin:", "ageMax:", "checkIn:", "cancelledFrom[0]:",
		"customFieldFilters[0].operator:", "customFieldFilters[1].value:", "supplementFilters[0].supplementId:", "supplementFilters[0].optionIds:"} {
		if !strings.Contains(all, w) {
			t.Errorf("%s\ndoes not mention %q", all, w)
		}
	}
}

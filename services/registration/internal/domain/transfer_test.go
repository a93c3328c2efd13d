package domain_test

import (
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/services/registration/internal/domain"
)

// transferEvent has an adults' women category, a MIXED pairs one and a waiver for everyone
// and one for minors.
func transferEvent() domain.Event {
	return domain.Event{
		ID: "evt_1", StartDate: "2027-06-12",
		Categories: []domain.Category{
			{ID: "cat_women", Gender: domain.GenderFemale, TeamSize: domain.TeamSize{Min: 1, Max: 1}, AgeMin: intp(16)},
			{ID: "cat_pairs", Gender: domain.GenderMixed, TeamSize: domain.TeamSize{Min: 2, Max: 2}},
		},
		Waivers: []domain.Waiver{
			{ID: "wvr_all", Title: "Liability", Version: 3, Required: true},
			{ID: "wvr_minors", Title: "Parental consent", Version: 1, Required: true, ForMinors: true},
			{ID: "wvr_photos", Title: "Photos", Version: 1},
		},
	}
}

func person(name, gender, birth string) domain.Athlete {
	return domain.Athlete{Fullname: name, IDNumber: "ID-" + name, Email: name + "@example.com", Phone: "+34600111222", Gender: gender, BirthDate: birth}
}

// paid is a paid registration in category with a ticket per athlete.
func paid(category string, athletes ...domain.Athlete) domain.Registration {
	o := domain.Order{ID: "ord_1", Status: domain.OrderCompleted}
	r := domain.Registration{ID: "reg_1", CategoryID: category, Order: &o}
	for i, a := range athletes {
		r.Tickets = append(r.Tickets, domain.Ticket{ID: "tkt_" + a.Fullname, AthleteID: "ath_" + a.Fullname, Position: i, Status: domain.TicketActive, Athlete: a})
	}
	return r
}

func TestPlanTransfer(t *testing.T) {
	now := time.Date(2027, 5, 1, 10, 0, 0, 0, time.UTC)
	ann, bea := person("ann", "FEMALE", "1990-01-01"), person("bea", "FEMALE", "1995-01-01")
	cancelled := paid("cat_women", ann)
	cancelled.Tickets[0].Status = domain.TicketCancelled
	unpaid := paid("cat_women", ann)
	unpaid.Order = &domain.Order{Status: domain.OrderPending}
	closed := transferEvent()
	closed.TransfersUntil = &now
	for name, c := range map[string]struct {
		event  domain.Event
		reg    domain.Registration
		ticket string
		to     domain.Athlete
		kind   fault.Kind
		code   string
	}{
		"a man for a women's place":        {transferEvent(), paid("cat_women", ann), "tkt_ann", person("max", "MALE", "1990-01-01"), fault.Unprocessable, domain.CodeGenderNotAllowed},
		"too young on race day":            {transferEvent(), paid("cat_women", ann), "tkt_ann", person("kid", "FEMALE", "2011-06-13"), fault.Unprocessable, domain.CodeAgeNotAllowed},
		"a MIXED pair of two men":          {transferEvent(), paid("cat_pairs", ann, person("bob", "MALE", "1990-01-01")), "tkt_ann", person("cy", "MALE", "1990-01-01"), fault.Unprocessable, domain.CodeTeamComposition},
		"a cancelled ticket":               {transferEvent(), cancelled, "tkt_ann", bea, fault.Conflict, domain.CodeTicketCancelled},
		"an unpaid order":                  {transferEvent(), unpaid, "tkt_ann", bea, fault.Conflict, domain.CodeTicketUnpaid},
		"at the event's transfer deadline": {closed, paid("cat_women", ann), "tkt_ann", bea, fault.Conflict, domain.CodeTransferDeadlinePassed},
		"a ticket of another registration": {transferEvent(), paid("cat_women", ann), "tkt_other", bea, fault.NotFound, ""},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := domain.PlanTransfer(c.event, c.reg, c.ticket, c.to, now)
			e, ok := fault.Of(err)
			if !ok || e.Kind != c.kind || e.Code != c.code {
				t.Fatalf("got %v (%+v), want %v %q", err, e, c.kind, c.code)
			}
		})
	}
}

func TestPlanTransferGivesTheTicketAndKeepsItsHistory(t *testing.T) {
	now := time.Date(2027, 5, 1, 10, 0, 0, 0, time.UTC)
	ann, minor := person("ann", "FEMALE", "1990-01-01"), person("teen", "FEMALE", "2010-01-01")
	cur := paid("cat_women", ann)
	p, err := domain.PlanTransfer(transferEvent(), cur, "tkt_ann", minor, now)
	if err != nil {
		t.Fatal(err)
	}
	tk := p.Registration.Tickets[0]
	if p.Unchanged || tk.ID != "tkt_ann" || tk.AthleteID == "ath_ann" || tk.Athlete != minor || tk.Age != 17 || tk.Status != domain.TicketActive {
		t.Fatalf("ticket %+v", tk)
	}
	if len(tk.PendingWaivers) != 2 || tk.PendingWaivers[0].WaiverID != "wvr_all" || tk.PendingWaivers[1].WaiverID != "wvr_minors" {
		t.Fatalf("a minor signs the required waivers and the minors' one: %+v", tk.PendingWaivers)
	}
	if len(tk.Transfers) != 1 || tk.Transfers[0] != p.Transfer || p.Transfer.From.AthleteID != "ath_ann" || p.Transfer.To.AthleteID != tk.AthleteID ||
		!p.Transfer.TransferredAt.Equal(now) {
		t.Fatalf("transfer %+v, history %+v", p.Transfer, tk.Transfers)
	}
	if cur.Tickets[0].Athlete != ann {
		t.Fatal("the plan changed the registration it was given")
	}
	again, err := domain.PlanTransfer(transferEvent(), p.Registration, "tkt_ann", minor, now.Add(time.Hour))
	if err != nil || !again.Unchanged || len(again.Registration.Tickets[0].Transfers) != 1 {
		t.Fatalf("the same athlete again: %+v %v", again, err)
	}
}

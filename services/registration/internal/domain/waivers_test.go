package domain_test

import (
	"errors"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/services/registration/internal/domain"
)

// codeOf is the code of err, a *fault.Error.
func codeOf(t *testing.T, err error) string {
	t.Helper()
	var fe *fault.Error
	if !errors.As(err, &fe) {
		t.Fatalf("error %v is not a fault", err)
	}
	return fe.Code
}

func TestPlanSigningMovesPendingWaiversToSigned(t *testing.T) {
	now := time.Date(2027, 5, 1, 9, 0, 0, 0, time.UTC)
	minor := person("Mia", "FEMALE", "2010-06-01") // 17 on race day: both waivers
	p, err := domain.PlanTransfer(transferEvent(), paid("cat_women", person("Ann", "FEMALE", "1990-01-01")), "tkt_Ann", minor, now)
	if err != nil || len(p.Registration.Tickets[0].PendingWaivers) != 2 {
		t.Fatalf("transfer: %+v %v", p, err)
	}
	cur := p.Registration

	for name, c := range map[string]struct {
		accepted map[string]bool
		code     string
	}{
		"refused":       {map[string]bool{"wvr_all": false}, domain.CodeWaiverRefused},
		"not required":  {map[string]bool{"wvr_photos": true}, domain.CodeWaiverNotPending},
		"unknown first": {map[string]bool{"wvr_all": false, "wvr_x": true}, domain.CodeWaiverNotPending},
	} {
		if _, err := domain.PlanSigning(cur, "tkt_Ann", c.accepted, now); codeOf(t, err) != c.code {
			t.Errorf("%s: %v, want %s", name, err, c.code)
		}
	}

	signedAt := now.Add(time.Hour)
	s, err := domain.PlanSigning(cur, "tkt_Ann", map[string]bool{"wvr_minors": true}, signedAt)
	tk := s.Registration.Tickets[0]
	if err != nil || s.Unchanged || len(tk.PendingWaivers) != 1 || tk.PendingWaivers[0].WaiverID != "wvr_all" ||
		len(tk.SignedWaivers) != 1 || tk.SignedWaivers[0].WaiverID != "wvr_minors" || !tk.SignedWaivers[0].SignedAt.Equal(signedAt) ||
		!s.Registration.UpdatedAt.Equal(signedAt) {
		t.Fatalf("signing: %+v %v", s, err)
	}
	if len(cur.Tickets[0].SignedWaivers) != 0 {
		t.Fatal("the signing changed the registration it was given")
	}
	again, err := domain.PlanSigning(s.Registration, "tkt_Ann", map[string]bool{"wvr_minors": true}, signedAt.Add(time.Hour))
	if err != nil || !again.Unchanged {
		t.Fatalf("signing again: %+v %v", again, err)
	}

	// A new transfer starts the new athlete with nothing signed.
	next, err := domain.PlanTransfer(transferEvent(), s.Registration, "tkt_Ann", person("Eva", "FEMALE", "1990-01-01"), signedAt)
	if err != nil || len(next.Registration.Tickets[0].SignedWaivers) != 0 || len(next.Registration.Tickets[0].PendingWaivers) != 1 {
		t.Fatalf("transfer after signing: %+v %v", next, err)
	}

	cancelled := s.Registration
	cancelled.Tickets = []domain.Ticket{tk}
	cancelled.Tickets[0].Status = domain.TicketCancelled
	if _, err := domain.PlanSigning(cancelled, "tkt_Ann", map[string]bool{"wvr_all": true}, now); codeOf(t, err) != domain.CodeTicketCancelled {
		t.Fatalf("cancelled: %v", err)
	}
}

func TestPlanTransferSigningSignsWhatIsAccepted(t *testing.T) {
	now := time.Date(2027, 5, 1, 9, 0, 0, 0, time.UTC)
	cur := paid("cat_women", person("Ann", "FEMALE", "1990-01-01"))
	minor := person("Mia", "FEMALE", "2010-06-01")
	if _, err := domain.PlanTransferSigning(transferEvent(), cur, "tkt_Ann", minor, map[string]bool{"wvr_photos": true}, now); codeOf(t, err) != domain.CodeWaiverNotPending {
		t.Fatalf("a waiver not to sign: %v", err)
	}
	p, err := domain.PlanTransferSigning(transferEvent(), cur, "tkt_Ann", minor, map[string]bool{"wvr_all": true, "wvr_minors": false}, now)
	tk := p.Registration.Tickets[0]
	if err != nil || len(tk.PendingWaivers) != 1 || tk.PendingWaivers[0].WaiverID != "wvr_minors" || len(tk.SignedWaivers) != 1 || tk.SignedWaivers[0].WaiverID != "wvr_all" {
		t.Fatalf("transfer signing: %+v %v", tk, err)
	}
}

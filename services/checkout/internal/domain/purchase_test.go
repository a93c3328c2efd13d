package domain_test

import (
	"testing"
	"time"

	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

func adult() domain.Athlete { return domain.Athlete{Fullname: "Ana", BirthDate: "1990-01-01"} }

func signature() *domain.LegalSignature {
	return &domain.LegalSignature{
		SignerName: "Ana", SignerIDNumber: "X123", AuthorityAccepted: true,
		WaiverVersions: []domain.WaiverVersion{{WaiverID: "wvr_l", Version: 2}, {WaiverID: "wvr_m", Version: 1}},
		Strokes:        [][]domain.SignaturePoint{{{X: 0, Y: 0, T: 0}, {X: 1, Y: 1, T: 300000}}},
	}
}

func purchase() domain.Purchase {
	return domain.Purchase{
		EventID: "evt_1", CategoryID: "cat_rx", TeamName: "A", Athletes: []domain.Athlete{adult()},
		WaiversAccepted: map[string]bool{"wvr_l": true}, LegalSignature: signature(), TermsAccepted: true,
	}
}

func TestPurchaseRules(t *testing.T) {
	ev := event()
	minor := domain.Athlete{Fullname: "Kid", BirthDate: "2009-06-13"} // 17 on 2027-06-12
	for name, c := range map[string]struct {
		change func(p *domain.Purchase)
		want   []string
	}{
		"valid": {func(*domain.Purchase) {}, nil},
		"terms": {func(p *domain.Purchase) { p.TermsAccepted = false },
			[]string{"termsAccepted must be true: the purchaser must accept the terms and conditions"}},
		"required waiver missing": {func(p *domain.Purchase) { p.WaiversAccepted = nil },
			[]string{`waiversAccepted["wvr_l"] must be true: the "Liability" waiver is required`}},
		"required waiver false": {func(p *domain.Purchase) { p.WaiversAccepted["wvr_l"] = false },
			[]string{`waiversAccepted["wvr_l"] must be true: the "Liability" waiver is required`}},
		"unknown waiver": {func(p *domain.Purchase) { p.WaiversAccepted["wvr_x"] = true },
			[]string{`waiversAccepted["wvr_x"] is not a waiver of this event`}},
		"minors waiver required of a minor": {func(p *domain.Purchase) {
			p.Athletes = []domain.Athlete{minor}
			p.LegalSignature.GuardianAuthorityAccepted = ptr(true)
		}, []string{`waiversAccepted["wvr_m"] must be true: the "Parental" waiver is required`}},
		"minor with guardian": {func(p *domain.Purchase) {
			p.Athletes = []domain.Athlete{minor}
			p.WaiversAccepted["wvr_m"] = true
			p.LegalSignature.GuardianAuthorityAccepted = ptr(true)
		}, nil},
		"18 on the day is an adult": {func(p *domain.Purchase) { p.Athletes = []domain.Athlete{{BirthDate: "2009-06-12"}} }, nil},
		"minor guest needs the guardian": {func(p *domain.Purchase) {
			p.Guests = []domain.GuestRegistration{{CategoryID: "cat_rx", Athletes: []domain.Athlete{minor}, WaiversAccepted: map[string]bool{"wvr_l": true, "wvr_m": true}}}
		}, []string{"legalSignature.guardianAuthorityAccepted must be true: an athlete is under 18 on the event date"}},
		"guest waivers": {func(p *domain.Purchase) {
			p.Guests = []domain.GuestRegistration{{CategoryID: "cat_rx", Athletes: []domain.Athlete{adult()}}}
		}, []string{`guestRegistrations[0].waiversAccepted["wvr_l"] must be true: the "Liability" waiver is required`}},
		"guardian false": {func(p *domain.Purchase) { p.LegalSignature.GuardianAuthorityAccepted = ptr(false) },
			[]string{"legalSignature.guardianAuthorityAccepted must be true when present: the guardian must confirm their authority"}},
		"no signature": {func(p *domain.Purchase) { p.LegalSignature = nil },
			[]string{"legalSignature is required: the event's waivers must be signed"}},
		"authority": {func(p *domain.Purchase) { p.LegalSignature.AuthorityAccepted = false },
			[]string{"legalSignature.authorityAccepted must be true: the signer must confirm they have the authority to sign"}},
		"outdated version": {func(p *domain.Purchase) { p.LegalSignature.WaiverVersions[0].Version = 1 },
			[]string{`legalSignature.waiverVersions[0].version 1 of waiver "wvr_l" is not the current one (2): reload the waivers and sign again`}},
		"missing version": {func(p *domain.Purchase) { p.LegalSignature.WaiverVersions = p.LegalSignature.WaiverVersions[:1] },
			[]string{`legalSignature.waiverVersions must list waiver "wvr_m" (Parental) at version 1`}},
		"unknown and repeated versions": {func(p *domain.Purchase) {
			p.LegalSignature.WaiverVersions = append(p.LegalSignature.WaiverVersions, domain.WaiverVersion{WaiverID: "wvr_x", Version: 1}, domain.WaiverVersion{WaiverID: "wvr_l", Version: 2})
		}, []string{`legalSignature.waiverVersions[2].waiverId "wvr_x" is not a waiver of this event`, `legalSignature.waiverVersions[3].waiverId "wvr_l" is listed more than once`}},
		"stroke bounds": {func(p *domain.Purchase) {
			p.LegalSignature.Strokes = [][]domain.SignaturePoint{{{X: 0, Y: 0}}, {{X: 1.5, Y: 0}, {X: 0, Y: 0, T: 300001}}}
		}, []string{"legalSignature.strokes[0] must have 2 to 1000 points",
			"legalSignature.strokes[1][0] must have x and y from 0 to 1 and t from 0 to 300000",
			"legalSignature.strokes[1][1] must have x and y from 0 to 1 and t from 0 to 300000"}},
		"ip enrichment with extra properties": {func(p *domain.Purchase) {
			p.IPEnrichment = []byte(`{"provider":"ipquery","countryCode":"ES","isp":"x","network":{"asn":"1","ip":"1.2.3.4"},"risk":{"vpn":true,"botnet":true}}`)
		}, []string{"ipEnrichment.isp is not allowed", "ipEnrichment.network.ip is not allowed", "ipEnrichment.risk.botnet is not allowed"}},
		"ip enrichment": {func(p *domain.Purchase) {
			p.IPEnrichment = []byte(`{"provider":"ipquery","countryCode":"ES","network":{"asn":"1"},"risk":{"vpn":true}}`)
		}, nil},
		"no strokes": {func(p *domain.Purchase) { p.LegalSignature.Strokes = nil }, []string{"legalSignature.strokes must have 1 to 20 strokes"}},
		"deferred completion": {func(p *domain.Purchase) {
			p.Deferred = &domain.DeferredTeamCompletion{PendingParticipantCount: 2, ParticipantWaivers: []domain.ParticipantWaivers{
				{WaiversAccepted: map[string]bool{"wvr_l": true}}, {WaiversAccepted: map[string]bool{"wvr_l": true}},
			}, PendingParticipantPositions: []int64{1, 2}, SlotGenders: []string{"MALE", "FEMALE"}}
		}, nil},
		"deferred completion counts": {func(p *domain.Purchase) {
			p.Deferred = &domain.DeferredTeamCompletion{PendingParticipantCount: 2, ParticipantWaivers: []domain.ParticipantWaivers{
				{WaiversAccepted: map[string]bool{}},
			}, PendingParticipantPositions: []int64{1, 1, 2}, SlotGenders: []string{"MALE"}}
		}, []string{
			"deferredTeamCompletion.participantWaivers must have one item per pending participant (2), not 1",
			"deferredTeamCompletion.pendingParticipantPositions must have one item per pending participant (2), not 3",
			"deferredTeamCompletion.slotGenders must have one item per pending participant (2), not 1",
			"deferredTeamCompletion.pendingParticipantPositions[1] repeats position 1",
			`deferredTeamCompletion.participantWaivers[0].waiversAccepted["wvr_l"] must be true: the "Liability" waiver is required`,
		}},
	} {
		t.Run(name, func(t *testing.T) {
			p := purchase()
			c.change(&p)
			err := p.Check(&ev)
			if c.want == nil {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			wantProblems(t, err, c.want...)
		})
	}
}

func TestSignatureNotRequiredWithoutWaivers(t *testing.T) {
	ev := event()
	ev.Waivers = nil
	p := purchase()
	p.WaiversAccepted, p.LegalSignature = nil, nil
	if err := p.Check(&ev); err != nil {
		t.Fatal(err)
	}
}

func TestIsMinor(t *testing.T) {
	for _, c := range []struct {
		birth string
		want  bool
	}{
		{"2009-06-12", false}, {"2009-06-13", true}, {"1980-01-01", false}, {"2020-02-29", true}, {"not a date", false},
	} {
		if got := domain.IsMinor(c.birth, day); got != c.want {
			t.Errorf("IsMinor(%s) = %v", c.birth, got)
		}
	}
	if !domain.IsMinor("2008-02-29", time.Date(2026, 2, 28, 0, 0, 0, 0, time.UTC)) ||
		domain.IsMinor("2008-02-29", time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)) {
		t.Error("someone born on February 29 must turn 18 on March 1 of a common year")
	}
}

func TestVisibility(t *testing.T) {
	ev := event()
	if err := ev.CheckVisible(""); err != nil {
		t.Fatal(err)
	}
	for name, change := range map[string]func(*domain.Event){
		"draft": func(e *domain.Event) { e.Status = "DRAFT" }, "private": func(e *domain.Event) { e.Private = true },
	} {
		e := event()
		change(&e)
		wantNotFound(t, e.CheckVisible(""), "event evt_1 not found")
		wantNotFound(t, e.CheckVisible("prv_wrong"), "event evt_1 not found")
		if err := e.CheckVisible("prv_1"); err != nil {
			t.Fatalf("%s with the preview token: %v", name, err)
		}
		if _, err := e.VisibleCategory("cat_private"); err == nil {
			t.Fatal("a preview token opened a private category")
		}
	}
}

func TestSelectionsCountAthletes(t *testing.T) {
	p := purchase()
	p.Deferred = &domain.DeferredTeamCompletion{PendingParticipantCount: 2}
	p.Guests = []domain.GuestRegistration{{CategoryID: "cat_team", Athletes: []domain.Athlete{adult(), adult(), adult()}}}
	s := p.Selections()
	if len(s) != 2 || s[0].Athletes != 3 || s[1].Athletes != 3 || *s[1].GuestIndex != 0 || s[1].Path != "guestRegistrations[0]." {
		t.Fatalf("selections %+v", s)
	}
	h := p.HoldRequest("chk_1", domain.Quote{Currency: "EUR", Total: 10, Promocode: "P"}, day)
	if h.Registrations[0].PendingParticipantCount != 2 || h.Registrations[1].PendingParticipantCount != 0 || h.Amount != 10 || h.Promocode != "P" || h.HoldID != "chk_1" {
		t.Fatalf("hold %+v", h)
	}
}

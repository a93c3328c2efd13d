package domain

import (
	"encoding/json"
	"fmt"

	"github.com/podiumhq/podium/libs/fault"
)

// Athlete is a person taking part, as the browser sends them; registration keeps them.
type Athlete struct {
	Fullname  string `json:"fullname"`
	IDNumber  string `json:"idNumber"`
	Email     string `json:"email"`
	Phone     string `json:"phone"`
	Gender    string `json:"gender"`
	BirthDate string `json:"birthDate"`
}

// CustomFieldValue is the answer to one of the event's form fields. AthleteIndex names the
// athlete (0-based) an ATHLETE-scoped field's value belongs to; registration checks it and
// needs it, so it travels to the hold as sent.
type CustomFieldValue struct {
	FieldID      string          `json:"fieldId"`
	Value        json.RawMessage `json:"value"`
	AthleteIndex *int            `json:"athleteIndex,omitempty"`
}

// DeferredTeamCompletion reserves participant places the organizer completes after payment.
type DeferredTeamCompletion struct {
	PendingParticipantCount     int64                `json:"pendingParticipantCount"`
	PendingParticipantPositions []int64              `json:"pendingParticipantPositions,omitempty"`
	SlotGenders                 []string             `json:"slotGenders,omitempty"`
	ParticipantWaivers          []ParticipantWaivers `json:"participantWaivers"`
}

// ParticipantWaivers are the waivers accepted for one pending participant.
type ParticipantWaivers struct {
	WaiversAccepted map[string]bool `json:"waiversAccepted"`
}

// LegalSignature is the purchaser's handwritten signature of the event's waivers.
type LegalSignature struct {
	SignerName                string             `json:"signerName"`
	SignerIDNumber            string             `json:"signerIdNumber"`
	AuthorityAccepted         bool               `json:"authorityAccepted"`
	MinorRelationship         string             `json:"minorRelationship,omitempty"`
	GuardianAuthorityAccepted *bool              `json:"guardianAuthorityAccepted,omitempty"`
	Locale                    string             `json:"locale,omitempty"`
	WaiverVersions            []WaiverVersion    `json:"waiverVersions"`
	Strokes                   [][]SignaturePoint `json:"strokes"`
}

// WaiverVersion names the version of a waiver that was signed.
type WaiverVersion struct {
	WaiverID string `json:"waiverId"`
	Version  int64  `json:"version"`
}

// SignaturePoint is a point of a stroke: x and y from 0 to 1, t milliseconds into the stroke.
type SignaturePoint struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
	T int64   `json:"t"`
}

// GuestRegistration is another registration bought in the same order.
type GuestRegistration struct {
	GuestEmail            string                `json:"guestEmail"`
	GuestName             string                `json:"guestName"`
	CategoryID            string                `json:"categoryId"`
	TeamName              string                `json:"teamName"`
	Club                  string                `json:"club,omitempty"`
	Athletes              []Athlete             `json:"athletes"`
	CustomFields          []CustomFieldValue    `json:"customFields,omitempty"`
	WaiversAccepted       map[string]bool       `json:"waiversAccepted,omitempty"`
	SelectedSupplementIDs []string              `json:"selectedSupplementIds,omitempty"`
	SupplementSelections  []SupplementSelection `json:"supplementSelections,omitempty"`
}

// Purchase is the body of a checkout session request (CheckoutSessionRequest), plus the
// optional previewToken the summary takes too.
type Purchase struct {
	EventID               string                  `json:"eventId"`
	IdempotencyKey        string                  `json:"idempotencyKey,omitempty"`
	PreviewToken          string                  `json:"previewToken,omitempty"`
	CategoryID            string                  `json:"categoryId"`
	TeamName              string                  `json:"teamName"`
	Club                  string                  `json:"club,omitempty"`
	Promocode             string                  `json:"promocode,omitempty"`
	Athletes              []Athlete               `json:"athletes"`
	Deferred              *DeferredTeamCompletion `json:"deferredTeamCompletion,omitempty"`
	CustomFields          []CustomFieldValue      `json:"customFields,omitempty"`
	WaiversAccepted       map[string]bool         `json:"waiversAccepted,omitempty"`
	LegalSignature        *LegalSignature         `json:"legalSignature,omitempty"`
	SelectedSupplementIDs []string                `json:"selectedSupplementIds,omitempty"`
	SupplementSelections  []SupplementSelection   `json:"supplementSelections,omitempty"`
	TermsAccepted         bool                    `json:"termsAccepted"`
	Guests                []GuestRegistration     `json:"guestRegistrations,omitempty"`
	IPEnrichment          json.RawMessage         `json:"ipEnrichment,omitempty"`
	PurchaserEmail        string                  `json:"purchaserEmail"`
	PurchaserName         string                  `json:"purchaserName"`
	CheckoutResumeSecret  string                  `json:"checkoutResumeSecret,omitempty"`
	// WaitlistOffer is the secret of a waitlist offer whose held place the registration takes.
	WaitlistOffer string `json:"waitlistOffer,omitempty"`
	SuccessURL    string `json:"successUrl"`
	CancelURL     string `json:"cancelUrl"`
}

// Selections are the purchase's registrations to price, with their real athlete counts: the
// main registration counts its pending participants too, since they are places bought now.
func (p *Purchase) Selections() []Selection {
	athletes := len(p.Athletes)
	if p.Deferred != nil {
		athletes += int(min(p.Deferred.PendingParticipantCount, 1000))
	}
	out := []Selection{{
		CategoryID: p.CategoryID, SupplementIDs: p.SelectedSupplementIDs,
		SupplementSelections: p.SupplementSelections, Athletes: athletes,
	}}
	for i, g := range p.Guests {
		out = append(out, Selection{
			Path: fmt.Sprintf("guestRegistrations[%d].", i), GuestIndex: &i, CategoryID: g.CategoryID,
			SupplementIDs: g.SelectedSupplementIDs, SupplementSelections: g.SupplementSelections, Athletes: len(g.Athletes),
		})
	}
	return out
}

// TeamNames are the registrations' team names, main first.
func (p *Purchase) TeamNames() []string {
	names := []string{p.TeamName}
	for _, g := range p.Guests {
		names = append(names, g.TeamName)
	}
	return names
}

// Check applies the session rules the request schema cannot express, reporting every problem
// at once (422):
//   - termsAccepted must be true;
//   - each registration's waiversAccepted maps every waiver required of it to true and names
//     only waivers of the event (a forMinors waiver is required only of a registration with
//     an athlete under 18 on the event's start date);
//   - a legal signature is required when any waiver is required of the order; it must have
//     authorityAccepted true, strokes within bounds, and waiverVersions listing exactly the
//     event's waivers at their current versions;
//   - when an athlete is a minor and the event has a forMinors waiver,
//     legalSignature.guardianAuthorityAccepted must be sent, and true;
//   - ipEnrichment has only the properties the contract lists (no extra ones);
//   - deferredTeamCompletion: participantWaivers (and pendingParticipantPositions and
//     slotGenders when sent) have pendingParticipantCount items, positions are distinct, and
//     each participant's waivers cover the waivers required of adults.
//
// Team size, gender, age and form-field rules are registration's (applied to the hold).
func (p *Purchase) Check(ev *Event) error {
	var bad fault.Problems
	if !p.TermsAccepted {
		bad.Add("termsAccepted must be true: the purchaser must accept the terms and conditions")
	}
	minor := hasMinor(ev, p.Athletes)
	needSignature := checkWaiverMap(ev, "waiversAccepted", p.WaiversAccepted, minor, &bad)
	for i, g := range p.Guests {
		gm := hasMinor(ev, g.Athletes)
		minor = minor || gm
		if checkWaiverMap(ev, fmt.Sprintf("guestRegistrations[%d].waiversAccepted", i), g.WaiversAccepted, gm, &bad) {
			needSignature = true
		}
	}
	if p.Deferred != nil {
		if p.Deferred.check(ev, &bad) {
			needSignature = true
		}
	}
	checkIPEnrichment(p.IPEnrichment, &bad)
	guardian := minor && ev.hasMinorsWaiver()
	switch {
	case p.LegalSignature != nil:
		p.LegalSignature.check(ev, guardian, &bad)
	case needSignature || guardian:
		bad.Add("legalSignature is required: the event's waivers must be signed")
	}
	return bad.Err(fault.Unprocessable)
}

func (d *DeferredTeamCompletion) check(ev *Event, bad *fault.Problems) (needSignature bool) {
	n := d.PendingParticipantCount
	if int64(len(d.ParticipantWaivers)) != n {
		bad.Addf("deferredTeamCompletion.participantWaivers must have one item per pending participant (%d), not %d", n, len(d.ParticipantWaivers))
	}
	if d.PendingParticipantPositions != nil && int64(len(d.PendingParticipantPositions)) != n {
		bad.Addf("deferredTeamCompletion.pendingParticipantPositions must have one item per pending participant (%d), not %d", n, len(d.PendingParticipantPositions))
	}
	if d.SlotGenders != nil && int64(len(d.SlotGenders)) != n {
		bad.Addf("deferredTeamCompletion.slotGenders must have one item per pending participant (%d), not %d", n, len(d.SlotGenders))
	}
	seen := map[int64]bool{}
	for i, pos := range d.PendingParticipantPositions {
		if seen[pos] {
			bad.Addf("deferredTeamCompletion.pendingParticipantPositions[%d] repeats position %d", i, pos)
		}
		seen[pos] = true
	}
	for i, w := range d.ParticipantWaivers {
		if checkWaiverMap(ev, fmt.Sprintf("deferredTeamCompletion.participantWaivers[%d].waiversAccepted", i), w.WaiversAccepted, false, bad) {
			needSignature = true
		}
	}
	return needSignature
}

package domain

import (
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/podiumhq/podium/libs/fault"
)

// Codes of a refused signing, as the error body's code.
const (
	// CodeWaiverNotPending is a waiver id the ticket's athlete has not to sign.
	CodeWaiverNotPending = "waiver_not_pending"
	// CodeWaiverRefused is a waiver answered false: refusing a waiver is not signing it.
	CodeWaiverRefused = "waiver_refused"
)

// SignedWaiver is a waiver the ticket's athlete signed, and when.
type SignedWaiver struct {
	PendingWaiver
	SignedAt time.Time `json:"signedAt"`
}

// SigningPlan is what a signing changes.
type SigningPlan struct {
	// Registration is the registration as it will be.
	Registration Registration
	// Unchanged is a signing of waivers signed already: it changes nothing.
	Unchanged bool
}

// PlanTransferSigning is PlanTransfer whose new athlete also accepts the waivers of accepted
// (waiver id → true) at the transfer: those are signed at now, not left pending; a false
// leaves the waiver pending, as at a create. An id the athlete has not to sign is refused
// before anything else.
func PlanTransferSigning(e Event, cur Registration, ticketID string, to Athlete, accepted map[string]bool, now time.Time) (TransferPlan, error) {
	if err := checkWaiverIDs(accepted, WaiversToSign(e, to), nil, false); err != nil {
		return TransferPlan{}, err
	}
	p, err := PlanTransfer(e, cur, ticketID, to, now)
	if err != nil || p.Unchanged {
		return p, err
	}
	for i, t := range p.Registration.Tickets {
		if t.ID == ticketID {
			p.Registration.Tickets[i] = signWaivers(t, accepted, now)
		}
	}
	return p, nil
}

// PlanSigning signs, at now, the pending waivers of ticket ticketID of cur that accepted names
// (waiver id → true). Every value must be true and every id pending or signed already; signing
// only waivers signed already changes nothing.
func PlanSigning(cur Registration, ticketID string, accepted map[string]bool, now time.Time) (SigningPlan, error) {
	k := slices.IndexFunc(cur.Tickets, func(t Ticket) bool { return t.ID == ticketID })
	if k < 0 {
		return SigningPlan{}, NotFound("ticket", ticketID)
	}
	old := cur.Tickets[k]
	if cur.Cancelled() || old.Status != TicketActive {
		return SigningPlan{}, fault.NewConflict(fmt.Sprintf("ticket %s is cancelled: its waivers cannot be signed", ticketID)).WithCode(CodeTicketCancelled)
	}
	if err := checkWaiverIDs(accepted, old.PendingWaivers, old.SignedWaivers, true); err != nil {
		return SigningPlan{}, err
	}
	t := signWaivers(old, accepted, now)
	if len(t.PendingWaivers) == len(old.PendingWaivers) {
		return SigningPlan{Registration: cur, Unchanged: true}, nil
	}
	next := cur
	next.Tickets = slices.Clone(cur.Tickets)
	next.Tickets[k] = t
	next.UpdatedAt = now
	return SigningPlan{Registration: next}, nil
}

// checkWaiverIDs refuses an id neither in pending nor in signed (CodeWaiverNotPending) and,
// when refuseFalse, a value false (CodeWaiverRefused), with a problem per id under
// waiversAccepted.
func checkWaiverIDs(accepted map[string]bool, pending []PendingWaiver, signed []SignedWaiver, refuseFalse bool) error {
	known := func(id string) bool {
		return slices.ContainsFunc(pending, func(w PendingWaiver) bool { return w.WaiverID == id }) ||
			slices.ContainsFunc(signed, func(w SignedWaiver) bool { return w.WaiverID == id })
	}
	var refused, unknown fault.Problems
	for _, id := range slices.Sorted(maps.Keys(accepted)) {
		switch {
		case !known(id):
			unknown = append(unknown, fmt.Sprintf("waiversAccepted.%s: is not a waiver the athlete has to sign", id))
		case refuseFalse && !accepted[id]:
			refused = append(refused, fmt.Sprintf("waiversAccepted.%s: must be true: refusing a waiver is not signing it", id))
		}
	}
	if len(unknown) > 0 {
		return (&fault.Error{Kind: fault.Unprocessable, Problems: unknown}).WithCode(CodeWaiverNotPending)
	}
	if len(refused) > 0 {
		return (&fault.Error{Kind: fault.Unprocessable, Problems: refused}).WithCode(CodeWaiverRefused)
	}
	return nil
}

// signWaivers returns t with the pending waivers accepted names as true signed at now.
func signWaivers(t Ticket, accepted map[string]bool, now time.Time) Ticket {
	pending := []PendingWaiver{}
	signed := slices.Clone(t.SignedWaivers)
	for _, w := range t.PendingWaivers {
		if accepted[w.WaiverID] {
			signed = append(signed, SignedWaiver{PendingWaiver: w, SignedAt: now.UTC()})
		} else {
			pending = append(pending, w)
		}
	}
	if len(signed) > len(t.SignedWaivers) {
		t.UpdatedAt = now
	}
	t.PendingWaivers, t.SignedWaivers = pending, signed
	return t
}

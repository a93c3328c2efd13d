package domain

import "slices"

// RefundMade is a refund an organizer made of an order's payment, as checkout reports it
// (podium.checkout.refund.succeeded.v1): what the order's refunds return in all, whether that
// is the whole payment, and the tickets it names and whether they are cancelled.
type RefundMade struct {
	OrderID        string
	AmountRefunded int64
	OrderRefunded  bool
	TicketIDs      []string
	CancelTickets  bool
}

// Names reports whether the refund names a ticket of reg: any when it names none (a refund of
// the order as a whole). Cancelling a ticket cancels its registration, as an organizer's
// delete of the ticket does: a team holds one place.
func (r RefundMade) Names(reg Registration) bool {
	if len(r.TicketIDs) == 0 {
		return true
	}
	for _, t := range reg.Tickets {
		if slices.Contains(r.TicketIDs, t.ID) {
			return true
		}
	}
	return false
}

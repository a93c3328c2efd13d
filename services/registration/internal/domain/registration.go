package domain

import (
	"sort"
	"time"
)

// OrderStatus is the payment state of an order.
type OrderStatus string

// Order statuses.
const (
	OrderPending   OrderStatus = "PENDING"
	OrderCompleted OrderStatus = "COMPLETED"
	OrderFailed    OrderStatus = "FAILED"
	OrderCancelled OrderStatus = "CANCELLED"
	OrderRefunded  OrderStatus = "REFUNDED"
)

// Order sources.
const (
	SourceManual   = "MANUAL"
	SourceCheckout = "CHECKOUT"
)

// TicketStatus is the lifecycle state of a ticket.
type TicketStatus string

// Ticket statuses.
const (
	TicketActive    TicketStatus = "ACTIVE"
	TicketCancelled TicketStatus = "CANCELLED"
)

// Participant data statuses.
const (
	ParticipantsReady   = "READY"
	ParticipantsPending = "PENDING_PARTICIPANTS"
)

// Order is a manual order or a checkout order.
type Order struct {
	ID             string
	OrganizerID    string
	EventID        string
	Status         OrderStatus
	Source         string
	HoldID         string
	Amount         int64
	Currency       string
	PurchaserEmail string
	PurchaserName  string
	Promocode      string
	// ClientNetwork is the network the buyer's checkout came from (its address, an IPv6
	// address's /64), for the caps on unpaid places; empty for organizer orders.
	ClientNetwork string
	PaymentRef    string
	AmountPaid    *int64
	// AmountRefunded is what the organizer's refunds returned of the payment in all.
	AmountRefunded int64
	ExpiresAt      *time.Time
	PaidAt         *time.Time
	ReleasedAt     *time.Time
	ReleaseReason  string
	// Livemode is false for test data: an order made with a test key.
	Livemode  bool
	CreatedAt time.Time
	UpdatedAt time.Time
}

// Scope is whose rows a call reaches: an organizer's ("" for any, in-process callers only) in
// one mode. A row of another organizer or mode is not found.
type Scope struct {
	OrganizerID string
	Livemode    bool
}

// Sees reports whether a row of organizerID in mode livemode is within s.
func (s Scope) Sees(organizerID string, livemode bool) bool {
	return (s.OrganizerID == "" || s.OrganizerID == organizerID) && s.Livemode == livemode
}

// HoldsPlaces reports whether the order's live registrations hold places (held while
// PENDING, confirmed while COMPLETED).
func (o Order) HoldsPlaces() bool {
	return o.Status == OrderPending || o.Status == OrderCompleted || o.Status == OrderRefunded
}

// Athlete is an athlete's personal data.
type Athlete struct {
	Fullname  string `json:"fullname"`
	IDNumber  string `json:"idNumber"`
	Email     string `json:"email"`
	Phone     string `json:"phone"`
	Gender    string `json:"gender"`
	BirthDate string `json:"birthDate"`
}

// CustomFieldValue is a value of a form field. AthleteIndex names the athlete (0-based) a
// value of an ATHLETE-scoped field belongs to; TEAM-scoped values have none.
type CustomFieldValue struct {
	FieldID      string `json:"fieldId"`
	Value        any    `json:"value"`
	AthleteIndex *int   `json:"athleteIndex,omitempty"`
}

// SupplementSelection is an option chosen of an OPTIONS supplement.
type SupplementSelection struct {
	SupplementID string `json:"supplementId"`
	OptionID     string `json:"optionId"`
}

// Guest is the contact of a registration a buyer made for someone else in the same checkout.
type Guest struct {
	Email string
	Name  string
}

// Registration is a team in a category of an event, with its tickets.
type Registration struct {
	ID                   string
	OrganizerID          string
	EventID              string
	CategoryID           string
	CategoryName         string
	OrderID              string
	TeamName             string
	Club                 *string
	Bib                  *int64
	Note                 *string
	CheckedInAt          []time.Time
	CustomFields         []CustomFieldValue
	SupplementIDs        []string
	SupplementSelections []SupplementSelection
	WaiversAccepted      map[string]bool
	PendingParticipants  int
	Guest                *Guest
	// Livemode is its order's mode.
	Livemode    bool
	CancelledAt *time.Time
	CreatedAt   time.Time
	UpdatedAt   time.Time
	// Tickets are every ticket, by position; cancelled ones included.
	Tickets []Ticket
	// Order is the order the registration belongs to, when loaded.
	Order *Order
}

// Ticket is one athlete's ticket; the athlete's data lives on it.
type Ticket struct {
	ID          string
	AthleteID   string
	Position    int
	Status      TicketStatus
	CancelledAt *time.Time
	Athlete     Athlete
	// ScannedAt is the scan time of the ticket's live check-in at the door, if any.
	ScannedAt *time.Time
	// Age is the athlete's age in whole years on the event's start date.
	Age int
	// PendingWaivers are the waivers its athlete has still to sign (after a transfer).
	PendingWaivers []PendingWaiver
	// SignedWaivers are the waivers its athlete signed since the last transfer, in signing order.
	SignedWaivers []SignedWaiver
	// Transfers are the ticket's transfers, oldest first.
	Transfers []Transfer
	CreatedAt time.Time
	UpdatedAt time.Time
}

// ParticipantStatus is READY unless participant places are still to be completed.
func (r Registration) ParticipantStatus() string {
	if r.PendingParticipants > 0 {
		return ParticipantsPending
	}
	return ParticipantsReady
}

// ActiveTickets returns the tickets that are not cancelled, by position.
func (r Registration) ActiveTickets() []Ticket {
	var out []Ticket
	for _, t := range r.Tickets {
		if t.Status == TicketActive {
			out = append(out, t)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Position < out[j].Position })
	return out
}

// Cancelled reports whether the registration's tickets were cancelled.
func (r Registration) Cancelled() bool { return r.CancelledAt != nil }

// CustomValues returns the search values of the athlete at position index (among the
// registration's athletes as sent): every TEAM value plus that athlete's ATHLETE values.
func (r Registration) CustomValues(index int) map[string]any {
	out := map[string]any{}
	for _, v := range r.CustomFields {
		if v.AthleteIndex == nil || *v.AthleteIndex == index {
			out[v.FieldID] = v.Value
		}
	}
	return out
}

// SupplementKeys returns the keys the supplement filters match: each chosen supplement id,
// and "supplementId/optionId" for each chosen option.
func (r Registration) SupplementKeys() []string {
	out := make([]string, 0, len(r.SupplementIDs)+2*len(r.SupplementSelections))
	out = append(out, r.SupplementIDs...)
	for _, s := range r.SupplementSelections {
		out = append(out, s.SupplementID, s.SupplementID+"/"+s.OptionID)
	}
	return out
}

// ExpiredHold is a PENDING order whose hold lapsed, with its mode.
type ExpiredHold struct {
	OrderID  string
	Livemode bool
}

// Deadline is when an order's hold lapses, for the sweeper.
type Deadline struct {
	OrderID string
	At      time.Time
}

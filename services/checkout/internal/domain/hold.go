package domain

import (
	"fmt"
	"strings"
	"time"
)

// ReleaseCancelled is the reason checkout gives registration when it releases a hold itself.
const ReleaseCancelled = "CANCELLED"

// HoldRequest asks registration to hold the places of an order (POST /internal/holds).
type HoldRequest struct {
	HoldID         string
	EventID        string
	ExpiresAt      time.Time
	Currency       string
	Amount         int64
	PurchaserEmail string
	PurchaserName  string
	Promocode      string
	// ClientNetwork is the network of the buyer's address (an IPv6 address's /64), by which
	// registration caps the places held and not yet paid for.
	ClientNetwork string
	// WaitlistOffer is the secret of the waitlist offer whose held place the first
	// registration takes (empty without one).
	WaitlistOffer string
	Registrations []HoldRegistration
}

// HoldRegistration is one registration of a held order.
type HoldRegistration struct {
	CategoryID              string
	TeamName                string
	Club                    string
	Athletes                []Athlete
	CustomFields            []CustomFieldValue
	SelectedSupplementIDs   []string
	SupplementSelections    []SupplementSelection
	PendingParticipantCount int64
	WaiversAccepted         map[string]bool
	// GuestEmail and GuestName are set on a guest registration: the guest's contact.
	GuestEmail string
	GuestName  string
}

// Hold is the PENDING order registration created.
type Hold struct {
	OrderID   string
	ExpiresAt time.Time
	// Tickets are the ticket ids of each registration held, in the request's order.
	Tickets [][]string
}

// HoldRequest builds the hold of the purchase priced by q. The main registration carries the
// pending participant count of a deferred team completion.
func (p *Purchase) HoldRequest(holdID string, q Quote, expiresAt time.Time) HoldRequest {
	r := HoldRequest{
		HoldID: holdID, EventID: p.EventID, ExpiresAt: expiresAt, Currency: q.Currency, Amount: q.Total,
		PurchaserEmail: p.PurchaserEmail, PurchaserName: p.PurchaserName, Promocode: q.Promocode,
	}
	main := HoldRegistration{
		CategoryID: p.CategoryID, TeamName: p.TeamName, Club: p.Club, Athletes: p.Athletes, CustomFields: p.CustomFields,
		SelectedSupplementIDs: p.SelectedSupplementIDs, SupplementSelections: p.SupplementSelections, WaiversAccepted: p.WaiversAccepted,
	}
	if p.Deferred != nil {
		main.PendingParticipantCount = p.Deferred.PendingParticipantCount
	}
	r.Registrations = append(r.Registrations, main)
	for _, g := range p.Guests {
		r.Registrations = append(r.Registrations, HoldRegistration{
			CategoryID: g.CategoryID, TeamName: g.TeamName, Club: g.Club, Athletes: g.Athletes, CustomFields: g.CustomFields,
			SelectedSupplementIDs: g.SelectedSupplementIDs, SupplementSelections: g.SupplementSelections, WaiversAccepted: g.WaiversAccepted,
			GuestEmail: g.GuestEmail, GuestName: g.GuestName,
		})
	}
	return r
}

// AppendQuery adds the query parameter param ("key=value", used verbatim so that placeholders
// such as {CHECKOUT_SESSION_ID} survive) to rawURL, keeping its query and fragment.
func AppendQuery(rawURL, param string) string {
	base, fragment, hasFragment := strings.Cut(rawURL, "#")
	sep := "?"
	if strings.Contains(base, "?") {
		sep = "&"
		if strings.HasSuffix(base, "?") || strings.HasSuffix(base, "&") {
			sep = ""
		}
	}
	out := base + sep + param
	if hasFragment {
		out += "#" + fragment
	}
	return out
}

// SummaryRequest is the body of a checkout summary request (CheckoutSummaryRequest), plus
// the optional eventId a website may send to spare a lookup of the category's event.
type SummaryRequest struct {
	EventID               string                `json:"eventId,omitempty"`
	PreviewToken          string                `json:"previewToken,omitempty"`
	CategoryID            string                `json:"categoryId"`
	Promocode             string                `json:"promocode,omitempty"`
	SelectedSupplementIDs []string              `json:"selectedSupplementIds,omitempty"`
	SupplementSelections  []SupplementSelection `json:"supplementSelections,omitempty"`
	Guests                []GuestSummary        `json:"guestRegistrations,omitempty"`
	PurchaserEmail        string                `json:"purchaserEmail"`
}

// GuestSummary is a guest registration of a summary request.
type GuestSummary struct {
	CategoryID            string                `json:"categoryId"`
	SelectedSupplementIDs []string              `json:"selectedSupplementIds,omitempty"`
	SupplementSelections  []SupplementSelection `json:"supplementSelections,omitempty"`
}

// Selections are the summary's registrations to price; athletes are not known yet, so
// per-athlete supplements are priced for the category's minimum team size.
func (r *SummaryRequest) Selections() []Selection {
	out := []Selection{{CategoryID: r.CategoryID, SupplementIDs: r.SelectedSupplementIDs, SupplementSelections: r.SupplementSelections}}
	for i, g := range r.Guests {
		out = append(out, Selection{
			Path: fmt.Sprintf("guestRegistrations[%d].", i), GuestIndex: &i, CategoryID: g.CategoryID,
			SupplementIDs: g.SelectedSupplementIDs, SupplementSelections: g.SupplementSelections,
		})
	}
	return out
}

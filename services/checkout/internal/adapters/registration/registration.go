// Package registration holds and releases places through the registration
// service's internal API (services/registration/contracts) through libs/peer, on behalf
// of the principal of the browser request being served. Registration's refusals come back as
// libs/peer answers them: 404, 409, 422 and 429 keep their category, registration down is
// unavailable, and any other refusal is checkout's own bug.
package registration

import (
	"context"
	"net/http"
	"time"

	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/libs/peer"
	"github.com/podiumhq/podium/services/checkout/internal/app"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// Client implements app.Registration.
type Client struct{ peer *peer.Client }

var _ app.Registration = (*Client)(nil)

// New returns a client of registration at base whose calls take at most timeout and carry the
// identity tokens signer mints.
func New(base string, timeout time.Duration, signer *identity.Signer) *Client {
	return &Client{peer: peer.New(peer.Options{Name: identity.Registration, BaseURL: base, Timeout: timeout, Signer: signer})}
}

type holdBody struct {
	HoldID         string             `json:"holdId"`
	EventID        string             `json:"eventId"`
	ExpiresAt      time.Time          `json:"expiresAt"`
	Currency       string             `json:"currency"`
	Amount         int64              `json:"amount"`
	PurchaserEmail string             `json:"purchaserEmail"`
	PurchaserName  string             `json:"purchaserName"`
	Promocode      string             `json:"promocode,omitempty"`
	ClientNetwork  string             `json:"clientNetwork,omitempty"`
	WaitlistOffer  string             `json:"waitlistOffer,omitempty"`
	Registrations  []holdRegistration `json:"registrations"`
}

type holdRegistration struct {
	CategoryID              string                       `json:"categoryId"`
	TeamName                string                       `json:"teamName"`
	Club                    string                       `json:"club,omitempty"`
	Athletes                []domain.Athlete             `json:"athletes"`
	CustomFields            []domain.CustomFieldValue    `json:"customFields,omitempty"`
	SelectedSupplementIDs   []string                     `json:"selectedSupplementIds,omitempty"`
	SupplementSelections    []domain.SupplementSelection `json:"supplementSelections,omitempty"`
	PendingParticipantCount int64                        `json:"pendingParticipantCount,omitempty"`
	WaiversAccepted         map[string]bool              `json:"waiversAccepted,omitempty"`
	GuestEmail              string                       `json:"guestEmail,omitempty"`
	GuestName               string                       `json:"guestName,omitempty"`
}

type holdAnswer struct {
	OrderID       string    `json:"orderId"`
	Status        string    `json:"status"`
	ExpiresAt     time.Time `json:"expiresAt"`
	Registrations []struct {
		TicketIDs []string `json:"ticketIds"`
	} `json:"registrations"`
}

// Hold posts /internal/holds: 409 means places short, 422 broken rules, 404 an unknown event
// or category, 429 too many places held and not paid for (with its Retry-After).
func (c *Client) Hold(ctx context.Context, as identity.Principal, r domain.HoldRequest) (domain.Hold, error) {
	body := holdBody{
		HoldID: r.HoldID, EventID: r.EventID, ExpiresAt: r.ExpiresAt.UTC(), Currency: r.Currency, Amount: r.Amount,
		PurchaserEmail: r.PurchaserEmail, PurchaserName: r.PurchaserName, Promocode: r.Promocode, ClientNetwork: r.ClientNetwork,
		WaitlistOffer: r.WaitlistOffer,
	}
	for _, reg := range r.Registrations {
		body.Registrations = append(body.Registrations, holdRegistration(reg))
	}
	var ans holdAnswer
	if err := c.peer.Do(ctx, as, http.MethodPost, "/internal/holds", body, &ans); err != nil {
		return domain.Hold{}, err
	}
	h := domain.Hold{OrderID: ans.OrderID, ExpiresAt: ans.ExpiresAt}
	for _, reg := range ans.Registrations {
		h.Tickets = append(h.Tickets, reg.TicketIDs)
	}
	return h, nil
}

// ReleaseHold posts /internal/holds/release with the hold id: registration releases the
// order made for it, if any, and refuses a hold with that id afterwards. A completed order
// stays completed (409).
func (c *Client) ReleaseHold(ctx context.Context, as identity.Principal, holdID, reason string) error {
	body := map[string]string{"holdId": holdID, "reason": reason}
	return c.peer.Do(ctx, as, http.MethodPost, "/internal/holds/release", body, nil)
}

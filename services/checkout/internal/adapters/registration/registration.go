// Package registration holds, confirms and releases places through the registration
// service's internal API (docs/contracts/registration-holds.md), signing its calls on the
// purchase's behalf.
package registration

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/checkout/internal/adapters/peer"
	"github.com/podiumhq/podium/services/checkout/internal/app"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// Client implements app.Registration.
type Client struct{ c *peer.Client }

var _ app.Registration = (*Client)(nil)

// New returns a client of registration at base.
func New(base string, timeout time.Duration, signer *identity.Signer) *Client {
	return &Client{c: peer.New(identity.Registration, base, timeout, signer)}
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
	OrderID   string    `json:"orderId"`
	Status    string    `json:"status"`
	ExpiresAt time.Time `json:"expiresAt"`
}

// Hold posts /internal/holds. 409 (places short) becomes a *domain.ConflictError, 422 a
// *domain.RuleError with registration's problems, 404 a *domain.NotFoundError, 429 (too many
// places held and not paid for) a *domain.TooManyRequestsError with its Retry-After.
func (c *Client) Hold(ctx context.Context, caller domain.Caller, r domain.HoldRequest) (domain.Hold, error) {
	body := holdBody{
		HoldID: r.HoldID, EventID: r.EventID, ExpiresAt: r.ExpiresAt.UTC(), Currency: r.Currency, Amount: r.Amount,
		PurchaserEmail: r.PurchaserEmail, PurchaserName: r.PurchaserName, Promocode: r.Promocode, ClientNetwork: r.ClientNetwork,
	}
	for _, reg := range r.Registrations {
		body.Registrations = append(body.Registrations, holdRegistration(reg))
	}
	var ans holdAnswer
	_, err := c.c.Do(ctx, caller, http.MethodPost, "/internal/holds", body, &ans)
	var p *peer.Problem
	if errors.As(err, &p) {
		switch p.Status {
		case http.StatusConflict:
			return domain.Hold{}, &domain.ConflictError{Message: strings.Join(p.Messages, "; ")}
		case http.StatusUnprocessableEntity:
			return domain.Hold{}, &domain.RuleError{Problems: p.Messages}
		case http.StatusNotFound:
			return domain.Hold{}, &domain.NotFoundError{Text: strings.Join(p.Messages, "; ")}
		case http.StatusTooManyRequests:
			return domain.Hold{}, &domain.TooManyRequestsError{Message: strings.Join(p.Messages, "; "), RetryAfter: time.Duration(p.RetryAfter) * time.Second}
		}
		return domain.Hold{}, &domain.UnavailableError{Service: "registration", Err: p}
	}
	if err != nil {
		return domain.Hold{}, err
	}
	return domain.Hold{OrderID: ans.OrderID, ExpiresAt: ans.ExpiresAt}, nil
}

// Confirm posts /internal/holds/{orderId}/confirm; 409 is domain.ErrNoPlaceLeft.
func (c *Client) Confirm(ctx context.Context, caller domain.Caller, orderID, paymentRef string, amount int64) error {
	body := map[string]any{"paymentRef": paymentRef, "amountPaid": amount}
	_, err := c.c.Do(ctx, caller, http.MethodPost, "/internal/holds/"+url.PathEscape(orderID)+"/confirm", body, nil)
	var p *peer.Problem
	if errors.As(err, &p) {
		if p.Status == http.StatusConflict {
			return domain.ErrNoPlaceLeft
		}
		return &domain.UnavailableError{Service: "registration", Err: p}
	}
	return err
}

// ReleaseHold posts /internal/holds/release with the hold id: registration releases the
// order made for it, if any, and refuses a hold with that id afterwards. A completed order
// (409) stays completed.
func (c *Client) ReleaseHold(ctx context.Context, caller domain.Caller, holdID, reason string) error {
	body := map[string]string{"holdId": holdID, "reason": reason}
	_, err := c.c.Do(ctx, caller, http.MethodPost, "/internal/holds/release", body, nil)
	var p *peer.Problem
	if errors.As(err, &p) {
		return &domain.UnavailableError{Service: "registration", Err: p}
	}
	return err
}

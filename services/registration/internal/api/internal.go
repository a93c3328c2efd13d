package api

import (
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/registration/internal/app"
	"github.com/podiumhq/podium/services/registration/internal/domain"
)

type holdRegistrationBody struct {
	CategoryID              string                       `json:"categoryId"`
	TeamName                string                       `json:"teamName"`
	Club                    *string                      `json:"club"`
	Athletes                []domain.Athlete             `json:"athletes"`
	CustomFields            []domain.CustomFieldValue    `json:"customFields"`
	SelectedSupplementIDs   []string                     `json:"selectedSupplementIds"`
	SupplementSelections    []domain.SupplementSelection `json:"supplementSelections"`
	PendingParticipantCount int                          `json:"pendingParticipantCount"`
	WaiversAccepted         map[string]bool              `json:"waiversAccepted"`
	// GuestEmail and GuestName are set on a registration bought for someone else.
	GuestEmail string `json:"guestEmail"`
	GuestName  string `json:"guestName"`
}

type holdBody struct {
	HoldID         string    `json:"holdId"`
	EventID        string    `json:"eventId"`
	ExpiresAt      time.Time `json:"expiresAt"`
	Currency       string    `json:"currency"`
	Amount         int64     `json:"amount"`
	PurchaserEmail string    `json:"purchaserEmail"`
	PurchaserName  string    `json:"purchaserName"`
	Promocode      string    `json:"promocode"`
	// ClientNetwork is the network of the buyer's address (see identity.ClientNetwork).
	ClientNetwork string `json:"clientNetwork"`
	// WaitlistOffer is the secret of the waitlist offer the purchase uses.
	WaitlistOffer string                 `json:"waitlistOffer"`
	Registrations []holdRegistrationBody `json:"registrations"`
}

type holdRegistrationView struct {
	RegistrationID string   `json:"registrationId"`
	CategoryID     string   `json:"categoryId"`
	TicketIDs      []string `json:"ticketIds"`
}

type holdView struct {
	OrderID       string                 `json:"orderId"`
	Status        string                 `json:"status"`
	ExpiresAt     *time.Time             `json:"expiresAt"`
	Registrations []holdRegistrationView `json:"registrations"`
}

func newHoldView(o domain.Order, regs []domain.Registration) holdView {
	v := holdView{OrderID: o.ID, Status: string(o.Status), ExpiresAt: utcPtr(o.ExpiresAt), Registrations: make([]holdRegistrationView, len(regs))}
	for i, r := range regs {
		ids := make([]string, len(r.Tickets))
		for j, t := range r.Tickets {
			ids[j] = t.ID
		}
		v.Registrations[i] = holdRegistrationView{RegistrationID: r.ID, CategoryID: r.CategoryID, TicketIDs: ids}
	}
	return v
}

func (h handlers) createHold(c *fiber.Ctx) error {
	var b holdBody
	if err := httpserver.DecodeJSON(c, &b); err != nil {
		return err
	}
	in := app.HoldInput{
		HoldID: b.HoldID, EventID: b.EventID, ExpiresAt: b.ExpiresAt, Currency: b.Currency, Amount: b.Amount,
		PurchaserEmail: b.PurchaserEmail, PurchaserName: b.PurchaserName, Promocode: b.Promocode,
		ClientNetwork: identity.ClientNetwork(b.ClientNetwork), WaitlistOffer: b.WaitlistOffer,
	}
	for _, r := range b.Registrations {
		reg := domain.RegistrationInput{
			CategoryID: r.CategoryID, TeamName: r.TeamName, Club: r.Club, Athletes: r.Athletes,
			CustomFields: r.CustomFields, SupplementIDs: r.SelectedSupplementIDs, SupplementSelections: r.SupplementSelections,
			PendingParticipants: r.PendingParticipantCount, WaiversAccepted: r.WaiversAccepted,
		}
		if r.GuestEmail != "" || r.GuestName != "" {
			reg.Guest = &domain.Guest{Email: r.GuestEmail, Name: r.GuestName}
		}
		in.Registrations = append(in.Registrations, reg)
	}
	hold, err := h.svc.CreateHold(c.UserContext(), identity.From(c), in)
	if err != nil {
		return err
	}
	status := fiber.StatusCreated
	if hold.Existing {
		status = fiber.StatusOK
	}
	return c.Status(status).JSON(newHoldView(hold.Order, hold.Registrations))
}

type releaseBody struct {
	Reason string `json:"reason"`
}

func (h handlers) releaseHold(c *fiber.Ctx) error {
	var b releaseBody
	if err := httpserver.DecodeJSON(c, &b); err != nil {
		return err
	}
	o, err := h.svc.ReleaseHold(c.UserContext(), identity.From(c), param(c, "orderId"), b.Reason)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"orderId": o.ID, "status": o.Status, "reason": o.ReleaseReason, "releasedAt": utcPtr(o.ReleasedAt)})
}

type releaseByIDBody struct {
	HoldID string `json:"holdId"`
	Reason string `json:"reason"`
}

// releaseHoldByID releases a hold by the hold id checkout chose, for a hold whose answer it
// never got; orderId and status are null when no order was made (none will be).
func (h handlers) releaseHoldByID(c *fiber.Ctx) error {
	var b releaseByIDBody
	if err := httpserver.DecodeJSON(c, &b); err != nil {
		return err
	}
	o, found, err := h.svc.ReleaseHoldByID(c.UserContext(), identity.From(c), b.HoldID, b.Reason)
	if err != nil {
		return err
	}
	if !found {
		return c.JSON(fiber.Map{"holdId": b.HoldID, "orderId": nil, "status": nil, "reason": b.Reason})
	}
	return c.JSON(fiber.Map{"holdId": b.HoldID, "orderId": o.ID, "status": o.Status, "reason": o.ReleaseReason, "releasedAt": utcPtr(o.ReleasedAt)})
}

package api

import (
	"bytes"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// scopeRefunds is the scope that moves money back, and reads the refunds made.
const scopeRefunds = "refunds:write"

// refundView is an organizer's refund as the API shows it.
type refundView struct {
	ID             string     `json:"id"`
	OrderID        string     `json:"orderId"`
	Amount         int64      `json:"amount"`
	Currency       string     `json:"currency"`
	Reason         string     `json:"reason"`
	TicketIDs      []string   `json:"ticketIds"`
	CancelTickets  bool       `json:"cancelTickets"`
	Status         string     `json:"status"`
	FailureCode    *string    `json:"failureCode"`
	FailureMessage *string    `json:"failureMessage"`
	Livemode       bool       `json:"livemode"`
	CreatedAt      time.Time  `json:"createdAt"`
	SucceededAt    *time.Time `json:"succeededAt"`
	FailedAt       *time.Time `json:"failedAt"`
}

func newRefundView(r domain.OrderRefund) refundView {
	v := refundView{ID: r.ID, OrderID: r.OrderID, Amount: r.Amount, Currency: r.Currency, Reason: r.Reason, TicketIDs: r.TicketIDs,
		CancelTickets: r.CancelTickets, Status: r.State, Livemode: r.Livemode, CreatedAt: r.CreatedAt.UTC(), SucceededAt: utc(r.SucceededAt), FailedAt: utc(r.FailedAt)}
	if v.TicketIDs == nil {
		v.TicketIDs = []string{}
	}
	// The last failure is shown while the refund is retried too: Stripe's answer, late or not.
	if r.FailureCode != "" || r.FailureMessage != "" {
		v.FailureCode, v.FailureMessage = &r.FailureCode, &r.FailureMessage
	}
	return v
}

func utc(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

// createRefund decides a refund (202, pending; the refund worker makes it) or replays the one
// decided with the same Idempotency-Key (Idempotent-Replayed: true).
func (h handlers) createRefund(c *fiber.Ctx) error {
	var req domain.RefundRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return err
	}
	res, err := h.svc.RequestRefund(c.UserContext(), identity.From(c), strings.Clone(c.Get("Idempotency-Key")), bytes.Clone(c.Body()), req)
	if err != nil {
		return err
	}
	if res.Replayed {
		c.Set(HeaderReplayed, "true")
	}
	return c.Status(fiber.StatusAccepted).JSON(newRefundView(res.Refund))
}

// getRefund shows one refund of the organizer's, of the key's mode.
func (h handlers) getRefund(c *fiber.Ctx) error {
	r, err := h.svc.OrderRefund(c.UserContext(), identity.From(c), strings.Clone(c.Params("refundId")))
	if err != nil {
		return err
	}
	return c.JSON(newRefundView(r))
}

// listRefunds lists the refunds of an order (orderId is required), oldest first.
func (h handlers) listRefunds(c *fiber.Ctx) error {
	orderID := strings.Clone(c.Query("orderId"))
	limit, offset := c.QueryInt("limit", 50), c.QueryInt("offset", 0)
	var problems []string
	if orderID == "" {
		problems = append(problems, "orderId is required")
	}
	if limit < 1 || limit > 100 {
		problems = append(problems, "limit must be 1 to 100")
	}
	if offset < 0 {
		problems = append(problems, "offset must be at least 0")
	}
	if len(problems) > 0 {
		return fault.NewInvalid(problems...)
	}
	refunds, total, err := h.svc.OrderRefunds(c.UserContext(), identity.From(c), orderID, limit, offset)
	if err != nil {
		return err
	}
	data := make([]refundView, 0, len(refunds))
	for _, r := range refunds {
		data = append(data, newRefundView(r))
	}
	return c.JSON(fiber.Map{"data": data, "total": total, "limit": limit, "offset": offset})
}

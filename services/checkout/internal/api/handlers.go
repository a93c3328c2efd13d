package api

import (
	"bytes"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/checkout/internal/app"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// HeaderReplayed marks an answer replayed from an earlier request with the same
// idempotency key.
const HeaderReplayed = "Idempotent-Replayed"

// handlers parse requests, call the use cases and write their results. Values taken from the
// Fiber context are cloned, because Fiber reuses its buffers after the handler returns.
type handlers struct {
	svc *app.Service
}

// buyer is who sends a browser request: the gateway's verified principal and the network of
// the client address the gateway determined.
func buyer(c *fiber.Ctx) app.Buyer {
	return app.Buyer{Principal: identity.From(c), Network: identity.ClientNetwork(strings.Clone(identity.ClientIP(c)))}
}

func (h handlers) summary(c *fiber.Ctx) error {
	var req domain.SummaryRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return err
	}
	q, err := h.svc.Summary(c.UserContext(), buyer(c), req)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(newSummaryView(q))
}

// session creates the session, or replays its stored answer; the purchase is decoded only
// when the service needs it (a retry of the very same bytes is answered without it).
func (h handlers) session(c *fiber.Ctx) error {
	res, err := h.svc.CreateSession(c.UserContext(), app.SessionRequest{
		Buyer: buyer(c), Body: bytes.Clone(c.Body()),
		Decode: func() (p domain.Purchase, err error) {
			err = httpserver.DecodeJSON(c, &p)
			return p, err
		},
	})
	if err != nil {
		return err
	}
	if res.Replayed {
		c.Set(HeaderReplayed, "true")
	}
	return c.Status(fiber.StatusCreated).JSON(res)
}

// retryUnknownAfter is the Retry-After of a webhook about a checkout not known yet (Stripe
// follows its own schedule; the header is for any other sender).
const retryUnknownAfter = time.Minute

// stripeWebhook answers 200 with what the webhook did, or 503 with Retry-After when it names a
// checkout not known yet (app.WebhookDeliverAgain), so that Stripe delivers it again; the service
// logged it already.
func (h handlers) stripeWebhook(c *fiber.Ctx) error {
	payload := bytes.Clone(c.Body())
	result, err := h.svc.HandleStripeWebhook(c.UserContext(), payload, strings.Clone(c.Get("Stripe-Signature")))
	if err != nil {
		return err
	}
	if result == app.WebhookDeliverAgain {
		return &httpserver.Error{
			Status:  http.StatusServiceUnavailable,
			Message: "the checkout of this session is not known yet; deliver the event again",
			Headers: map[string]string{fiber.HeaderRetryAfter: strconv.Itoa(httpserver.RetryAfterSeconds(retryUnknownAfter))},
		}
	}
	return c.JSON(fiber.Map{"received": true, "result": result})
}

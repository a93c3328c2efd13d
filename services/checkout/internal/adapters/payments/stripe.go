// Package payments is the payment provider adapter on Stripe's own SDK (stripe-go): Checkout
// Sessions and refunds through its client, with idempotency keys derived from checkout's own
// ids, and webhooks verified with its webhook helpers.
package payments

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/stripe/stripe-go/v76"
	"github.com/stripe/stripe-go/v76/client"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"

	"github.com/podiumhq/podium/services/checkout/internal/app"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// Options configures the client.
type Options struct {
	// SecretKey is the Stripe secret key (sk_…); with stripe-mock any sk_test_… works.
	SecretKey string
	// APIBase replaces https://api.stripe.com when set (stripe-mock's address locally).
	APIBase string
	// WebhookSecret verifies webhook signatures (whsec_…).
	WebhookSecret string
	// Timeout bounds one HTTP exchange with Stripe (default 6 s: with one retry, a session
	// request still fits the gateway's 15 s upstream timeout).
	Timeout time.Duration
	// MaxNetworkRetries is how often stripe-go retries a failed request with the same
	// idempotency key (default 1; set -1 for none).
	MaxNetworkRetries int64
}

// Client implements app.Payments on Stripe.
type Client struct {
	api           *client.API
	webhookSecret string
}

var _ app.Payments = (*Client)(nil)

// New returns a Client. Requests are traced (otelhttp) and logged by nobody but checkout.
func New(o Options) *Client {
	if o.Timeout == 0 {
		o.Timeout = 6 * time.Second
	}
	retries := o.MaxNetworkRetries
	switch {
	case retries == 0:
		retries = 1
	case retries < 0:
		retries = 0
	}
	cfg := &stripe.BackendConfig{
		HTTPClient:        &http.Client{Timeout: o.Timeout, Transport: otelhttp.NewTransport(http.DefaultTransport)},
		LeveledLogger:     &stripe.LeveledLogger{Level: stripe.LevelNull},
		MaxNetworkRetries: stripe.Int64(retries),
		EnableTelemetry:   stripe.Bool(false),
	}
	if o.APIBase != "" {
		cfg.URL = stripe.String(strings.TrimRight(o.APIBase, "/"))
	}
	backends := &stripe.Backends{
		API:     stripe.GetBackendWithConfig(stripe.APIBackend, cfg),
		Connect: stripe.GetBackendWithConfig(stripe.ConnectBackend, cfg),
		Uploads: stripe.GetBackendWithConfig(stripe.UploadsBackend, cfg),
	}
	return &Client{api: client.New(o.SecretKey, backends), webhookSecret: o.WebhookSecret}
}

// CreateSession opens a Checkout Session in payment mode: one line per payment line (price
// data with the currency, unit amount and name), the purchaser's e-mail, checkout's ids in the
// metadata of the session and of its payment intent, the order id as client reference, the
// success URL with Stripe's {CHECKOUT_SESSION_ID} placeholder added, and an expiry.
func (c *Client) CreateSession(ctx context.Context, r domain.PaymentRequest) (domain.PaymentSession, error) {
	meta := map[string]string{"orderId": r.OrderID, "eventId": r.EventID, "organizerId": r.OrganizerID, "checkoutId": r.CheckoutID}
	params := &stripe.CheckoutSessionParams{
		Mode:              stripe.String(string(stripe.CheckoutSessionModePayment)),
		CustomerEmail:     stripe.String(r.CustomerEmail),
		ClientReferenceID: stripe.String(r.OrderID),
		SuccessURL:        stripe.String(domain.AppendQuery(r.SuccessURL, "session_id={CHECKOUT_SESSION_ID}")),
		CancelURL:         stripe.String(r.CancelURL),
		ExpiresAt:         stripe.Int64(r.ExpiresAt.Unix()),
		PaymentIntentData: &stripe.CheckoutSessionPaymentIntentDataParams{Metadata: meta},
	}
	params.Metadata = meta
	currency := strings.ToLower(r.Currency)
	for _, l := range r.Lines {
		params.LineItems = append(params.LineItems, &stripe.CheckoutSessionLineItemParams{
			Quantity: stripe.Int64(l.Quantity),
			PriceData: &stripe.CheckoutSessionLineItemPriceDataParams{
				Currency:    stripe.String(currency),
				UnitAmount:  stripe.Int64(l.UnitAmount),
				ProductData: &stripe.CheckoutSessionLineItemPriceDataProductDataParams{Name: stripe.String(l.Name)},
			},
		})
	}
	params.Context = ctx
	params.SetIdempotencyKey(r.IdempotencyKey)
	s, err := c.api.CheckoutSessions.New(params)
	if err != nil {
		return domain.PaymentSession{}, fmt.Errorf("stripe: create checkout session: %w", describe(err))
	}
	out := domain.PaymentSession{ID: s.ID, URL: s.URL, ExpiresAt: time.Unix(s.ExpiresAt, 0).UTC()}
	if s.PaymentIntent != nil {
		out.PaymentIntent = s.PaymentIntent.ID
	}
	return out, nil
}

// Refund refunds a payment intent, in full or r.Amount of it, with r's idempotency key and metadata. A failure
// is a *domain.RefundError, classified by refundError.
func (c *Client) Refund(ctx context.Context, r domain.Refund) (string, error) {
	params := &stripe.RefundParams{PaymentIntent: stripe.String(r.PaymentIntent)}
	if r.Amount > 0 {
		params.Amount = stripe.Int64(r.Amount)
	}
	params.Metadata = r.Metadata
	params.Context = ctx
	params.SetIdempotencyKey(r.IdempotencyKey)
	refund, err := c.api.Refunds.New(params)
	if err != nil {
		return "", refundError("refund", err)
	}
	return refund.ID, nil
}

// Refunds lists the refunds of a payment intent, every page, each with its payment intent,
// status, amount, creation time and the checkout its metadata names. A failure is a
// *domain.RefundError, classified as Refund's.
func (c *Client) Refunds(ctx context.Context, paymentIntent string) ([]domain.ProviderRefund, error) {
	params := &stripe.RefundListParams{PaymentIntent: stripe.String(paymentIntent)}
	params.Limit = stripe.Int64(listPage)
	params.Context = ctx
	var out []domain.ProviderRefund
	it := c.api.Refunds.List(params)
	for it.Next() {
		r := it.Refund()
		pr := domain.ProviderRefund{ID: r.ID, Status: string(r.Status), Amount: r.Amount, Currency: string(r.Currency), Created: time.Unix(r.Created, 0).UTC(), CheckoutID: r.Metadata["checkoutId"], RefundID: r.Metadata["refundId"]}
		if r.PaymentIntent != nil {
			pr.PaymentIntent = r.PaymentIntent.ID
		}
		out = append(out, pr)
	}
	if err := it.Err(); err != nil {
		return nil, refundError("list refunds", err)
	}
	return out, nil
}

// refundError classifies a failed refund call (domain.RefundError, where the rules are
// explained): no answer from Stripe, 409 (a request with the same idempotency key in flight),
// 429 and lock_timeout (rate limited, or an object locked by another request), 5xx, and any
// answer Stripe marks Stripe-Should-Retry: true are temporary; every other 4xx (400
// invalid_request_error such as charge_disputed or amount_too_large, 402 card errors, 404
// resource_missing, 401 and 403 for a key revoked or without the refund permission) is
// permanent, since Stripe answers it the same until someone changes something there.
// Stripe-Should-Retry: false makes nothing permanent: it advises against asking again with
// the same idempotency key, and the next attempt asks with another (domain.Refund).
// charge_already_refunded is marked as such. The message is describe's, with no secret.
func refundError(op string, err error) *domain.RefundError {
	out := &domain.RefundError{Message: "stripe: " + op + ": " + describe(err).Error()}
	var se *stripe.Error
	if !errors.As(err, &se) {
		return out
	}
	out.Code = string(se.Code)
	out.AlreadyRefunded = se.Code == stripe.ErrorCodeChargeAlreadyRefunded
	switch {
	case shouldRetry(se) == "true":
	case se.Code == stripe.ErrorCodeLockTimeout || se.Code == stripe.ErrorCodeRateLimit || se.Code == stripe.ErrorCodeIdempotencyKeyInUse:
	case se.HTTPStatusCode == http.StatusConflict || se.HTTPStatusCode == http.StatusTooManyRequests:
	default:
		out.Permanent = se.HTTPStatusCode >= 400 && se.HTTPStatusCode < 500
	}
	return out
}

// shouldRetry is Stripe's advice on an error ("true", "false", or empty without one): the
// Stripe-Should-Retry header of its answer.
func shouldRetry(se *stripe.Error) string {
	if se.LastResponse == nil {
		return ""
	}
	return se.LastResponse.Header.Get("Stripe-Should-Retry")
}

// describe keeps what is safe to log of a Stripe error: its type, code, status, request id
// and message, except the message of an authentication (401) or permission (403) failure,
// which may quote the key (masked, but still the key's).
func describe(err error) error {
	var se *stripe.Error
	if !errors.As(err, &se) {
		return err
	}
	msg := se.Msg
	switch se.HTTPStatusCode {
	case http.StatusUnauthorized:
		msg = "authentication with the configured key failed"
	case http.StatusForbidden:
		msg = "the configured key may not do this (a restricted key without the permission?)"
	}
	return fmt.Errorf("%s %s (HTTP %d, request %s): %s", se.Type, se.Code, se.HTTPStatusCode, se.RequestID, msg)
}

// Package stripewebhook delivers Stripe's events about a Checkout Session to a webhook endpoint
// as Stripe does: built by stripeevent, signed with the endpoint's secret, posted as JSON. The
// local stack's tools use it (stripe-trigger, the hosted checkout stand-in); no service does.
package stripewebhook

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/stripe/stripe-go/v76/webhook"

	"github.com/podiumhq/podium/libs/testkit/stripeevent"
)

// Event is one event to deliver: its type (checkout.session.completed, ...), the session it is
// about, whether a completed session is paid, and when it happened (its creation and signature
// time).
type Event struct {
	Type    string
	Session stripeevent.Session
	Paid    bool
	At      time.Time
}

// Answer is what the endpoint answered.
type Answer struct {
	Status int
	Body   string
}

// OK tells whether the endpoint accepted the event (2xx), as Stripe counts a delivery.
func (a Answer) OK() bool { return a.Status/100 == 2 }

// String reads as status and body ("200 OK\n{...}").
func (a Answer) String() string {
	return fmt.Sprintf("%d %s\n%s", a.Status, http.StatusText(a.Status), a.Body)
}

// Deliver posts e, signed with secret, to url and returns the endpoint's answer.
func Deliver(ctx context.Context, client *http.Client, url, secret string, e Event) (Answer, error) {
	payload, err := stripeevent.Build(e.Type, e.Session, e.Paid, e.At)
	if err != nil {
		return Answer{}, err
	}
	signed := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: secret, Timestamp: e.At})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(signed.Payload))
	if err != nil {
		return Answer{}, fmt.Errorf("post %s: %w", url, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Stripe-Signature", signed.Header)
	res, err := client.Do(req)
	if err != nil {
		return Answer{}, fmt.Errorf("post %s: %w", url, err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	return Answer{Status: res.StatusCode, Body: strings.TrimSpace(string(body))}, nil
}

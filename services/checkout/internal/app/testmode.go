package app

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// TestOutcome is the outcome an organizer gives a test checkout session.
type TestOutcome string

// Test outcomes, each played as the Stripe event it stands for.
const (
	TestComplete TestOutcome = "complete"
	TestFail     TestOutcome = "fail"
	TestExpire   TestOutcome = "expire"
)

// testOutcomeEvents are the Stripe events the outcomes play, and the state each leaves.
var testOutcomeEvents = map[TestOutcome]struct {
	kind domain.PaymentEventKind
	ends func(domain.Checkout) bool
}{
	TestComplete: {domain.PaymentCompleted, func(c domain.Checkout) bool { return c.PaidOrBeyond() }},
	TestFail:     {domain.PaymentAsyncFailed, func(c domain.Checkout) bool { return c.State == domain.StatePaymentFailed }},
	TestExpire:   {domain.PaymentExpired, func(c domain.Checkout) bool { return c.State == domain.StateExpired }},
}

// TestOutcomeResult answers a test outcome.
type TestOutcomeResult struct {
	SessionID string      `json:"sessionId"`
	OrderID   string      `json:"orderId"`
	Outcome   TestOutcome `json:"outcome"`
	Livemode  bool        `json:"livemode"`
}

// errOutcomeGiven refuses an outcome for a session that has one.
var errOutcomeGiven = fault.NewConflict("this test checkout session already has an outcome")

// GiveTestOutcome plays an outcome of an organizer's open test checkout session as Stripe
// would: the event Stripe sends (checkout.session.completed paid in full,
// async_payment_failed or expired), signed with the test webhook secret, handled by the Stripe
// webhook's own path (verification, inbox, the checkout's state and its payment event in one
// transaction). A session not among the organizer's test ones is not found; one with an
// outcome already (a free one included) is a conflict.
func (s *Service) GiveTestOutcome(ctx context.Context, organizerID, sessionID string, outcome TestOutcome) (TestOutcomeResult, error) {
	play, ok := testOutcomeEvents[outcome]
	if !ok {
		return TestOutcomeResult{}, fmt.Errorf("test outcome %q", outcome)
	}
	pay, err := s.paymentsOf(false)
	if err != nil {
		return TestOutcomeResult{}, err
	}
	c, err := s.repo.TestCheckout(ctx, organizerID, sessionID)
	if errors.Is(err, domain.ErrCheckoutNotFound) {
		return TestOutcomeResult{}, fault.NewNotFound("test checkout session " + sessionID)
	}
	if err != nil {
		return TestOutcomeResult{}, err
	}
	if c.State != domain.StateOpen || strings.HasPrefix(sessionID, domain.FreeSessionIDPrefix) {
		return TestOutcomeResult{}, errOutcomeGiven
	}
	// stripe-go checks a signature's time against the real clock, whatever clock the service
	// runs on; the event itself is dated by the service's.
	payload, signature, err := pay.SignedEvent(play.kind, c, s.clock.Now(), time.Now())
	if err != nil {
		return TestOutcomeResult{}, err
	}
	result, err := s.HandleStripeWebhook(ctx, payload, signature)
	if err != nil {
		return TestOutcomeResult{}, err
	}
	if result != WebhookOutcomeApplied {
		return TestOutcomeResult{}, errOutcomeGiven // another outcome was given meanwhile
	}
	after, err := s.repo.Checkout(ctx, CheckoutRef{ID: c.ID, Livemode: Mode(false)})
	if err != nil {
		return TestOutcomeResult{}, err
	}
	if !play.ends(after) {
		return TestOutcomeResult{}, errOutcomeGiven
	}
	return TestOutcomeResult{SessionID: sessionID, OrderID: c.OrderID, Outcome: outcome, Livemode: false}, nil
}

// visible applies the browser's visibility rule (domain.Event.CheckVisible) to a live buyer; a
// test-mode buyer sees every event of its organizer, as with its preview token, so that an
// event is tried before it is published.
func visible(ev *domain.Event, as identity.Principal, previewToken string) error {
	if !as.Livemode() {
		return nil
	}
	return ev.CheckVisible(previewToken)
}

// DeleteTestData deletes an organizer's test checkouts with their idempotency records and
// the inbox records of their test webhooks, in one transaction, and returns how many
// checkouts it deleted; live data is never touched, and a second call deletes nothing more.
func (s *Service) DeleteTestData(ctx context.Context, organizerID string) (int64, error) {
	return s.repo.DeleteTestData(ctx, organizerID, TestStripeConsumer(organizerID))
}

// Package app holds the checkout service's use cases: the browser's summary and session, the
// Stripe webhooks, registration's order events and the housekeeping sweeper, over ports for
// the catalog, registration, the payment provider and the repository.
package app

import (
	"context"
	"log/slog"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/podiumhq/podium/libs/clock"
	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// Catalog reads events from the catalog service, on behalf of the principal a browser request
// is made for, so that the catalog scopes by its organizer.
type Catalog interface {
	// Event returns the event with id; a failure category when it is not found or the catalog
	// cannot answer.
	Event(ctx context.Context, as identity.Principal, eventID string) (domain.Event, error)
	// EventOfCategory returns the event a category belongs to, failing as Event does.
	EventOfCategory(ctx context.Context, as identity.Principal, categoryID string) (domain.Event, error)
}

// Registration holds and releases places through the registration service, on behalf of the
// principal a browser request is made for. Its refusals are failure categories. Orders are
// confirmed by the payments checkout publishes (payment.succeeded), never by a call.
type Registration interface {
	// Hold creates (or, for a known hold id, returns) a PENDING order holding the places. It is
	// refused as a conflict (sold out), broken rules, not found or too many requests (a cap on
	// places held and not paid for).
	Hold(ctx context.Context, as identity.Principal, r domain.HoldRequest) (domain.Hold, error)
	// ReleaseHold frees the places of the PENDING order made for a hold id, whether or not its
	// hold's answer arrived; a hold with that id made afterwards is refused. Releasing a hold
	// id no order was made for is fine.
	ReleaseHold(ctx context.Context, as identity.Principal, holdID, reason string) error
}

// Payments is the payment provider (Stripe).
type Payments interface {
	// CreateSession opens a hosted checkout; r.IdempotencyKey makes a retry return the same one.
	CreateSession(ctx context.Context, r domain.PaymentRequest) (domain.PaymentSession, error)
	// Refund refunds a payment (r.Amount of it, or all) and returns the refund id; r.IdempotencyKey makes a
	// retry return the same answer. A failure is a *domain.RefundError, temporary or permanent.
	Refund(ctx context.Context, r domain.Refund) (string, error)
	// Refunds lists the refunds of a payment intent; a failure is a *domain.RefundError, as
	// Refund's.
	Refunds(ctx context.Context, paymentIntent string) ([]domain.ProviderRefund, error)
	// RecentSessions lists the sessions created since, each with its creation time and what
	// its state says (domain.ListedSession).
	RecentSessions(ctx context.Context, since time.Time) ([]domain.ListedSession, error)
	// Session reads one session by id, as RecentSessions lists it, and tells a delayed payment
	// that failed (PaymentAsyncFailed) from one still awaited.
	Session(ctx context.Context, id string) (domain.ListedSession, error)
	// ParseWebhook verifies a webhook's signature and reads it; domain.ErrInvalidSignature
	// when the signature is missing, wrong or too old.
	ParseWebhook(payload []byte, signature string) (domain.PaymentEvent, error)
	// SignedEvent is the event of kind the provider would send about c's session (a
	// completion paid in full), created at, with its signature header made with this
	// provider's webhook secret at signedAt: what a test outcome plays.
	SignedEvent(kind domain.PaymentEventKind, c domain.Checkout, at, signedAt time.Time) (payload []byte, signature string, err error)
}

// CheckoutRef picks a checkout: by the provider's session id when exactly one checkout has
// it, else by checkout id; or by order id.
type CheckoutRef struct {
	ID        string
	SessionID string
	OrderID   string
	// Livemode, when set, picks among checkouts of that mode only: one of the other mode is
	// not found.
	Livemode *bool
}

// Mode is a mode as a CheckoutRef's Livemode.
func Mode(livemode bool) *bool { return &livemode }

// IdempotencyOutcome finalises an idempotency record in the transaction of a change.
type IdempotencyOutcome struct {
	KeyID, Key string
	Livemode   bool
	CheckoutID string
	Response   []byte
}

// Update describes a change of one checkout.
type Update struct {
	Ref CheckoutRef
	// Consumer and MessageID, when set, record the message in the inbox in the same
	// transaction, and skip a message already recorded.
	Consumer, MessageID string
	// RecordUnknown records a message about a checkout that does not exist as processed too;
	// otherwise nothing is recorded for it, so that its redelivery is handled again.
	RecordUnknown bool
	// Idempotency, when set, marks the record SUCCEEDED with its response.
	Idempotency *IdempotencyOutcome
}

// Outcome says what Repository.Update did.
type Outcome int

// Outcomes of an update.
const (
	// ChangeApplied: the change ran on the checkout and was stored.
	ChangeApplied Outcome = iota
	// MessageAlreadyProcessed: the inbox holds the message already; nothing ran.
	MessageAlreadyProcessed
	// CheckoutNotKnown: no checkout matched; the message is recorded as processed only with
	// Update.RecordUnknown.
	CheckoutNotKnown
)

// Repository stores checkouts, idempotency records and failed promocodes. It owns its
// transactions.
type Repository interface {
	// Idempotency returns the record of an idempotency key of a publishable key, with one
	// indexed read.
	Idempotency(ctx context.Context, keyID string, livemode bool, key string) (domain.IdempotencyRecord, bool, error)
	// InsertIdempotency stores r unless the key has a record, and reports whether it did.
	InsertIdempotency(ctx context.Context, r domain.IdempotencyRecord) (bool, error)
	// TakeOverIdempotency makes the key RUNNING for a new request when its record FAILED, its
	// RUNNING lease lapsed, or it expired. It keeps the record's checkout when that checkout
	// can resume, else switches to newCheckoutID, and returns the checkout id to use; ok is
	// false when another request took the key first.
	TakeOverIdempotency(ctx context.Context, r domain.IdempotencyRecord, newCheckoutID string, now time.Time) (checkoutID string, ok bool, err error)
	// FailIdempotency marks the RUNNING record of checkoutID FAILED.
	FailIdempotency(ctx context.Context, keyID string, livemode bool, key, checkoutID string) error
	// PromocodeUses returns the uses of an event's promocode at now in one mode: checkouts
	// holding a use (PromoReserved) that are paid or completed, or await payment with their
	// hold not lapsed.
	PromocodeUses(ctx context.Context, eventID, code string, livemode bool, now time.Time) (int64, error)
	// CreateCheckout stores c and, when it reserves a promocode use, refuses it with
	// domain.ErrPromocodeExhausted when the uses at c.CreatedAt, itself included, would exceed
	// c.PromoMaxUses (nil: unlimited), atomically with other reservations of the code. A
	// checkout with c.ID already stored is returned as it is, with existed true.
	CreateCheckout(ctx context.Context, c domain.Checkout) (stored domain.Checkout, existed bool, err error)
	// Update locks the checkout u.Ref picks and, in one transaction, runs fn on it, stores
	// it (its promocode state with it), writes the messages fn returns to the outbox and
	// applies u's inbox and idempotency parts. A change that makes the checkout count among
	// its promocode's uses again (HoldsPromocodeUse at its UpdatedAt) is refused with
	// domain.ErrPromocodeExhausted, and nothing kept, when that would exceed c.PromoMaxUses,
	// atomically with every reservation of the code.
	Update(ctx context.Context, u Update, fn func(*domain.Checkout) ([]domain.Message, error)) (domain.Checkout, Outcome, error)
	// Checkout returns a checkout by id, session id (the latest) or order id.
	Checkout(ctx context.Context, ref CheckoutRef) (domain.Checkout, error)
	// DeleteExpiredIdempotency deletes records expired at now.
	DeleteExpiredIdempotency(ctx context.Context, now time.Time) (int64, error)
	// StaleCheckouts lists checkouts still CREATED that were created before.
	StaleCheckouts(ctx context.Context, before time.Time) ([]string, error)
	// ClaimRefund claims the pending refund due longest at now (or decided with no next attempt)
	// that no worker holds, for the caller: its claim count (RefundClaim) grows by one, and no
	// other worker claims it for lease, measured on the database's clock so that the instances'
	// clocks do not matter; a worker that dies lets it go when the lease ends. ok is false when
	// none is due. No row stays locked once it returns.
	ClaimRefund(ctx context.Context, now time.Time, lease time.Duration) (c domain.Checkout, ok bool, err error)
	// FailedRefunds lists the checkouts whose refund failed for good (REFUND_FAILED), the
	// oldest failure first.
	FailedRefunds(ctx context.Context) ([]domain.Checkout, error)
	// RefundBacklog reads what waits for the refunds (the refund worker's gauges).
	RefundBacklog(ctx context.Context) (RefundBacklog, error)
	// UnsettledCheckouts returns, in one read, the checkouts of the ids that their listed
	// sessions' outcome could still move: of paid sessions (paid), those not paid or beyond; of
	// the others (unpaid: expired, or awaiting a delayed payment), those awaiting payment.
	// Like the other reconciliation reads, it reads checkouts of one mode.
	UnsettledCheckouts(ctx context.Context, livemode bool, paid, unpaid []string) ([]domain.Checkout, error)
	// ProcessingCheckouts returns up to limit checkouts awaiting a delayed payment whose ids
	// follow after, by id.
	ProcessingCheckouts(ctx context.Context, livemode bool, after string, limit int) ([]domain.Checkout, error)
	// ReconcileMark returns the creation time from which reconciliation of a mode lists
	// sessions (zero before any was recorded); SetReconcileMark records it.
	ReconcileMark(ctx context.Context, livemode bool) (time.Time, error)
	SetReconcileMark(ctx context.Context, livemode bool, mark time.Time) error
	// TestCheckout returns the latest test checkout of an organizer with a session id,
	// domain.ErrCheckoutNotFound when there is none.
	TestCheckout(ctx context.Context, organizerID, sessionID string) (domain.Checkout, error)
	// DeleteTestData deletes, in one transaction, an organizer's test checkouts, their
	// idempotency records and the inbox records of their test webhooks (consumer), and returns
	// how many checkouts it deleted.
	DeleteTestData(ctx context.Context, organizerID, consumer string) (int64, error)
	// Exclusively runs fn unless another instance runs a function under the same name (it then
	// reports false at once); the exclusion lasts while fn runs, and ends with its process.
	Exclusively(ctx context.Context, name string, fn func(context.Context) error) (ran bool, err error)
	// PruneInbox forgets processed message ids older than keep.
	PruneInbox(ctx context.Context, keep time.Duration) (int64, error)
	// AdmitPromocode admits a request with a promocode in one step, atomically for every
	// instance: while any subject is blocked at now it records nothing and returns the longest
	// block left; otherwise it records a failure against each subject up front and returns
	// the charges.
	AdmitPromocode(ctx context.Context, subjects []domain.FailureSubject, now time.Time) (charged []domain.FailureCharge, blocked time.Duration, err error)
	// ForgivePromocode takes back failures AdmitPromocode charged.
	ForgivePromocode(ctx context.Context, charged []domain.FailureCharge) error
	// DecideRefund decides an organizer's refund in one transaction (see RefundDecision): the
	// order's checkout locked (domain.ErrOrderNotFound when the organizer has no checkout of
	// the order in the key's mode), the key's idempotency record made (taken is true, and
	// nothing decided, when the key has one), the refund decided, counted against the payment
	// and stored, the record SUCCEEDED with the refund's id as its response.
	DecideRefund(ctx context.Context, d RefundDecision) (refund domain.OrderRefund, taken bool, err error)
	// OrderRefund returns an organizer's refund of a mode (domain.ErrRefundNotFound).
	OrderRefund(ctx context.Context, organizerID string, livemode bool, id string) (domain.OrderRefund, error)
	// OrderRefunds lists and counts the refunds of an organizer's order of a mode.
	OrderRefunds(ctx context.Context, organizerID string, livemode bool, orderID string, limit, offset int) ([]domain.OrderRefund, int, error)
	// OrderOfTickets returns the order of the organizer's paid checkout of a mode whose hold
	// holds every ticket given (domain.ErrOrderNotFound when none does).
	OrderOfTickets(ctx context.Context, organizerID string, livemode bool, ticketIDs []string) (string, error)
	// ClaimOrderRefund claims the organizer's refund due longest, as ClaimRefund does.
	ClaimOrderRefund(ctx context.Context, now time.Time, lease time.Duration) (domain.OrderRefund, bool, error)
	// RecordOrderRefund applies fn to the refund id, locked, and stores it when fn reports a
	// change: a refund that succeeded publishes refund.succeeded in the same transaction, one
	// that failed for good is no longer counted against its payment.
	RecordOrderRefund(ctx context.Context, id string, fn func(*domain.OrderRefund) bool) (domain.OrderRefund, bool, error)
	// PrunePromocodeFailures forgets subjects whose failures were forgiven and block ended.
	PrunePromocodeFailures(ctx context.Context, now time.Time) (int64, error)
}

// Options tunes the service; zero values take the defaults.
type Options struct {
	// HoldTTL is how long registration holds the places (default DefaultHoldTTL); see
	// SessionExpiry for the Stripe session's.
	HoldTTL time.Duration
	// Retention is how long an idempotency key is remembered (default 48 hours).
	Retention time.Duration
	// IdempotencyWait is how long a request waits for the first request with its key to
	// finish before answering 409 (default 5 seconds).
	IdempotencyWait time.Duration
	// Lease is how long a running request owns its idempotency key before another request
	// may take over, as after a crash (default 2 minutes).
	Lease time.Duration
	// Now is the clock (default time.Now).
	Now clock.Clock
	// AddressBackoff and KeyBackoff limit failed promocodes per client network and per
	// publishable key (default domain.DefaultAddressBackoff and DefaultKeyBackoff).
	AddressBackoff, KeyBackoff domain.Backoff
	// UnknownRetryWindow is how long after Stripe created it a webhook about a checkout not
	// known is answered 503, for Stripe to deliver it again (default
	// DefaultUnknownRetryWindow).
	UnknownRetryWindow time.Duration
	// ReconcileLookback is how far back reconciliation lists Stripe's sessions at most, before
	// its mark or when it is older (default DefaultReconcileLookback).
	ReconcileLookback time.Duration
	// RefundRetryMax is the longest wait between two attempts of a refund that fails for now
	// (default domain.RefundMaxRetry).
	RefundRetryMax time.Duration
	// RefunderIdle, when set, is called each time the refund worker finished a pass and waits
	// for the next (a test waits for it).
	RefunderIdle func()
	// TestPayments is the payment provider with test-mode credentials, for test data; nil
	// when test mode is not configured: test purchases are then refused (503).
	TestPayments Payments
}

// DefaultUnknownRetryWindow is how long a webhook about a checkout not known is delivered
// again unless configured otherwise: Stripe's retries at about 5 minutes, 30 minutes, 2 and
// 5 hours fall in it; reconciliation covers what comes later.
const DefaultUnknownRetryWindow = 6 * time.Hour

// DefaultHoldTTL is how long places are held before payment unless configured otherwise: a
// hosted checkout is usually paid within two or three minutes, and ten leave room for a card's
// 3-D Secure step, while holds that are never paid lock places up for little time. A payment
// after the hold lapsed still confirms the order if a place is left, and is refunded if not.
const DefaultHoldTTL = 10 * time.Minute

// PaymentGrace is how much longer the hold lives than the Stripe session when the hold is long
// enough, so that a payment completed at the session's last second still finds its hold.
const PaymentGrace = 4 * time.Minute

// MinSessionLife is the shortest life of a Stripe Checkout Session: Stripe refuses one that
// expires within 30 minutes of its creation, and 5 minutes more leave room for an
// interrupted attempt resumed after its lease (the same request, so the same expiry).
const MinSessionLife = 35 * time.Minute

// SessionExpiry is when the Stripe session of a checkout created at created, whose hold lapses
// at holdExpires, expires: PaymentGrace before the hold, but never within MinSessionLife of
// its creation. A hold shorter than that lapses before its session: a payment after it
// follows the late-payment path (a place is taken again if one is left, else the payment is
// refunded).
func SessionExpiry(created, holdExpires time.Time) time.Time {
	exp := holdExpires.Add(-PaymentGrace)
	if earliest := created.Add(MinSessionLife); exp.Before(earliest) {
		return earliest
	}
	return exp
}

// Consumers of the inbox.
const (
	ConsumerStripe = "stripe-webhooks"
	ConsumerOrders = "checkout-orders"
)

// inboxKeep is how long processed message ids are remembered: Stripe retries a webhook for up
// to three days.
const inboxKeep = 7 * 24 * time.Hour

// Service runs the use cases.
type Service struct {
	repo         Repository
	catalog      Catalog
	registration Registration
	payments     Payments
	log          *slog.Logger
	opts         Options
	// clock is opts.Now: the use cases stamp what they store with clock.Now().
	clock clock.Clock
	// bodies remembers the idempotency key and canonical hash of recent session bodies by the
	// SHA-256 of their bytes (see identify).
	bodies *lru.Cache[[32]byte, bodyID]
	// answers remembers succeeded answers by publishable key and body bytes (see claim).
	answers *lru.Cache[replayKey, answer]
	// refundsDecided wakes this process's refund worker when a refund was decided here.
	refundsDecided chan struct{}
	// delayed and delayedTest are where reconciliation's next page of delayed payments of
	// live and test checkouts starts.
	delayed, delayedTest delayedCursor
}

// errTestModeUnavailable refuses test-mode payments when no test credentials are configured.
var errTestModeUnavailable = &fault.Error{Kind: fault.Unavailable,
	Problems: []string{"test-mode payments are not configured on this platform (no Stripe test key); use a live key"}}

// paymentsOf returns the payment provider of a mode's data: the live one, or the test one
// (errTestModeUnavailable when not configured).
func (s *Service) paymentsOf(livemode bool) (Payments, error) {
	if livemode {
		return s.payments, nil
	}
	if s.opts.TestPayments == nil {
		return nil, errTestModeUnavailable
	}
	return s.opts.TestPayments, nil
}

// modes are the modes whose payments are configured: live, and test when it is.
func (s *Service) modes() []bool {
	if s.opts.TestPayments == nil {
		return []bool{true}
	}
	return []bool{true, false}
}

// rememberedBodies bounds Service.bodies (about 200 bytes each) and Service.answers (about
// 400 bytes each).
const rememberedBodies = 10_000

// New returns a Service.
func New(repo Repository, catalog Catalog, registration Registration, payments Payments, log *slog.Logger, o Options) *Service {
	if o.HoldTTL == 0 {
		o.HoldTTL = DefaultHoldTTL
	}
	if o.Retention == 0 {
		o.Retention = 48 * time.Hour
	}
	if o.IdempotencyWait == 0 {
		o.IdempotencyWait = 5 * time.Second
	}
	if o.Lease == 0 {
		o.Lease = 2 * time.Minute
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.AddressBackoff == (domain.Backoff{}) {
		o.AddressBackoff = domain.DefaultAddressBackoff
	}
	if o.KeyBackoff == (domain.Backoff{}) {
		o.KeyBackoff = domain.DefaultKeyBackoff
	}
	if o.UnknownRetryWindow == 0 {
		o.UnknownRetryWindow = DefaultUnknownRetryWindow
	}
	if o.ReconcileLookback == 0 {
		o.ReconcileLookback = DefaultReconcileLookback
	}
	if o.RefundRetryMax == 0 {
		o.RefundRetryMax = domain.RefundMaxRetry
	}
	bodies, _ := lru.New[[32]byte, bodyID](rememberedBodies) // fails only for a size below 1
	answers, _ := lru.New[replayKey, answer](rememberedBodies)
	return &Service{repo: repo, catalog: catalog, registration: registration, payments: payments, log: log, opts: o, clock: o.Now, bodies: bodies, answers: answers,
		refundsDecided: make(chan struct{}, 1)}
}

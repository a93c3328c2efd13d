// Package app holds the registration service's use cases: the organizer registration API,
// the browser receipts, the internal hold API for checkout, payments from Kafka and the
// sweeper of expired holds.
package app

import (
	"context"
	"time"

	"github.com/podiumhq/podium/libs/clock"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/registration/internal/domain"
)

// Catalog reads events from the catalog service (cached briefly by the adapter) as it shows
// them to caller, the principal of the request being served. It returns a not-found failure
// when the event does not exist or is another organizer's, and an unavailable one when the
// catalog cannot answer.
type Catalog interface {
	Event(ctx context.Context, caller identity.Principal, eventID string) (domain.Event, error)
}

// Repository stores orders, registrations, tickets, the quota ledger (per category and mode),
// the mail outbox and kept test mail. Implementations own their transactions and write the
// outbox events of every change inside them. A domain.Scope names whose rows a call reaches: an
// organizer in one mode; a row of another organizer or mode is not found. Its OrganizerID ""
// means any organizer, for the in-process payments consumer and hold sweeper only (every route
// names its caller's organizer).
type Repository interface {
	// CreateOrder stores o and its registrations with their tickets and takes their places
	// (held for a PENDING order, confirmed for a COMPLETED one; one place per registration, in
	// o's mode), all or nothing. quotas maps category ids to their quota (nil: unlimited).
	CreateOrder(ctx context.Context, o domain.Order, regs []domain.Registration, quotas map[string]*int) error
	// CreateHold stores a PENDING order like CreateOrder, in one transaction that locks the
	// order's client network and purchaser e-mail within its event and mode and reads their
	// live holds (PENDING, not lapsed at o.CreatedAt): it stores nothing when caps refuse the
	// order (caps.Admit's error), and releases the e-mail's holds caps.Admit names (reason
	// CANCELLED, as ReleaseOrder does) before it stores the order. With a waitlist offer's
	// secret, the order takes the place the live offer holds for its first registration's
	// category (the offer becomes ACCEPTED), or nothing is stored.
	CreateHold(ctx context.Context, o domain.Order, regs []domain.Registration, quotas map[string]*int, caps domain.HoldLimits, offer string) error
	// OrderByHold returns the order made for a checkout hold id, with its registrations.
	OrderByHold(ctx context.Context, s domain.Scope, holdID string) (domain.Order, []domain.Registration, error)
	// Registration returns the registration holding ticketID, with every ticket and the order.
	Registration(ctx context.Context, s domain.Scope, ticketID string) (domain.Registration, error)
	// UpdateRegistration locks the registration holding ticketID, asks plan for the change and
	// stores it, moving places when the category changes (quota is the new category's).
	UpdateRegistration(ctx context.Context, s domain.Scope, ticketID string, plan func(domain.Registration) (domain.UpdatePlan, error), quota func(categoryID string) *int) (domain.Registration, error)
	// TransferTicket locks the registration holding ticketID, asks plan for the transfer and
	// stores it with its registration.transferred event (nothing when the plan is unchanged),
	// without touching the places ledger.
	TransferTicket(ctx context.Context, s domain.Scope, ticketID string, plan func(domain.Registration) (domain.TransferPlan, error)) (domain.TransferPlan, error)
	// SignWaivers locks the registration holding ticketID, asks plan for the signing and
	// stores the ticket's waivers and the registration.updated event.
	SignWaivers(ctx context.Context, s domain.Scope, ticketID string, plan func(domain.Registration) (domain.SigningPlan, error)) (domain.SigningPlan, error)
	// DeleteRegistration applies the delete rule to the registration holding ticketID.
	DeleteRegistration(ctx context.Context, s domain.Scope, ticketID string, now time.Time) (domain.DeleteResult, error)
	// Search returns a page of ticket rows and the number of matching tickets.
	Search(ctx context.Context, s domain.Scope, q domain.SearchQuery) ([]domain.SearchRow, int, error)
	// ConfirmOrder confirms a PENDING order after its payment (or, after its hold lapsed, takes
	// its places again when the quota allows; otherwise it becomes FAILED with an
	// unfulfillable event and a conflict is returned alongside the order).
	ConfirmOrder(ctx context.Context, s domain.Scope, orderID, paymentRef string, amountPaid *int64, now time.Time) (domain.Order, []domain.Registration, error)
	// ReleaseOrder releases a PENDING order's places (CANCELLED, or FAILED for reason FAILED).
	ReleaseOrder(ctx context.Context, s domain.Scope, orderID, reason string, now time.Time) (domain.Order, error)
	// ReleaseHoldByID records that the organizer's hold id is released, so a hold with it
	// made afterwards is refused, and releases its order as ReleaseOrder does when one was
	// made (found), in one transaction that a hold with the same id waits for.
	ReleaseHoldByID(ctx context.Context, s domain.Scope, holdID, reason string, now time.Time) (o domain.Order, found bool, err error)
	// PruneReleasedHolds forgets hold ids released before.
	PruneReleasedHolds(ctx context.Context, before time.Time) (int64, error)
	// RefundOrder marks an order whose payment was returned REFUNDED: a FAILED or CANCELLED
	// one as it is, a PENDING one once released (reason FAILED, its places freed); a COMPLETED
	// one is a conflict. Repeating it is harmless.
	RefundOrder(ctx context.Context, s domain.Scope, orderID string, now time.Time) (domain.Order, error)
	// RecordRefund applies a refund made of a paid order (see store): tickets cancelled, the
	// amount refunded recorded, REFUNDED once the whole payment is returned, order.refunded
	// published; an order not paid is a conflict.
	RecordRefund(ctx context.Context, s domain.Scope, r domain.RefundMade, now time.Time) (domain.Order, error)
	// ExpiredHolds returns PENDING orders whose hold lapsed by now, with their modes.
	ExpiredHolds(ctx context.Context, now time.Time, limit int) ([]domain.ExpiredHold, error)
	// Receipts returns the COMPLETED orders of the event whose purchaser, athletes or guests
	// use email.
	Receipts(ctx context.Context, s domain.Scope, eventID, email string) ([]domain.Receipt, error)
	// QueueMail stores an e-mail for the mail worker; a test mail (m.Test) is kept as the
	// organizer's test mail instead, never sent.
	QueueMail(ctx context.Context, m domain.Mail, now time.Time) error
	// QueueReceiptMail stores m for the mail worker (or keeps a test one), in one transaction
	// that starts the cooldown of its recipient for the event in m's mode, unless the last
	// receipt mail to the recipient was queued less than cooldown before now (too many
	// requests); a mail with m's dedupe key still unsent is not stored twice, but takes m's
	// content.
	QueueReceiptMail(ctx context.Context, m domain.Mail, eventID string, now time.Time, cooldown time.Duration) error
	// TestMail returns a page of the organizer's kept test mail, newest first, and the total.
	TestMail(ctx context.Context, organizerID string, p domain.Page) ([]domain.TestMail, int, error)
	// PruneTestMail deletes test mail kept since before.
	PruneTestMail(ctx context.Context, before time.Time) (int64, error)
	// DeleteTestData deletes the organizer's test data (never a live row) in one transaction
	// and counts what it deleted; a second call deletes nothing more.
	DeleteTestData(ctx context.Context, organizerID string, now time.Time) (domain.TestDataDeleted, error)
	// CheckIn applies a scan in one transaction, unless its nonce was seen in s (then it
	// answers the stored result, or a conflict when the nonce named another scan): the ticket,
	// or every active ticket of its team, gets one live check-in each, announced in the outbox.
	CheckIn(ctx context.Context, s domain.Scope, scan domain.Scan, now time.Time) (domain.ScanResult, error)
	// UndoCheckIn undoes the check-in id within s (not found otherwise); an undone one is
	// answered as it is.
	UndoCheckIn(ctx context.Context, s domain.Scope, id string, now time.Time) (domain.CheckIn, error)
	Waitlist
	// Once runs fn on a repository bound to one transaction unless the consumer already
	// processed messageID, recording it in the same transaction.
	Once(ctx context.Context, consumer, messageID string, fn func(Repository) error) (bool, error)
}

// TestDataPeer deletes an organizer's test data at a peer service (checkout, webhooks) and
// counts what it deleted in its own fields of domain.TestDataDeleted.
type TestDataPeer interface {
	DeleteTestData(ctx context.Context, as identity.Principal) (domain.TestDataDeleted, error)
}

// Options tunes the service, as configured: a zero value turns its limit off.
type Options struct {
	// HoldLimits caps unpaid places per client network and purchaser e-mail in an event
	// (domain.DefaultHoldLimits by default in the configuration).
	HoldLimits domain.HoldLimits
	// ReceiptCooldown is how long after a receipt mail to an address for an event another is
	// refused (DefaultReceiptCooldown by default in the configuration).
	ReceiptCooldown time.Duration
	// OfferTTL is how long a waitlist offer holds its place (domain.DefaultOfferTTL by default).
	OfferTTL time.Duration
	// WaitlistLimits caps an e-mail's waitlist entries with an organizer
	// (domain.DefaultWaitlistLimits by default in the configuration).
	WaitlistLimits domain.WaitlistLimits
}

// DefaultReceiptCooldown is the receipt cooldown the configuration defaults to: mail normally
// arrives within a minute, and ten minutes lets a buyer who did not find it ask again in the
// same visit while keeping any address to six receipt mails an hour per event.
const DefaultReceiptCooldown = 10 * time.Minute

// DefaultOptions are the limits the configuration defaults to.
var DefaultOptions = Options{HoldLimits: domain.DefaultHoldLimits, ReceiptCooldown: DefaultReceiptCooldown, OfferTTL: domain.DefaultOfferTTL,
	WaitlistLimits: domain.DefaultWaitlistLimits}

// Service runs the use cases.
type Service struct {
	repo    Repository
	catalog Catalog
	clock   clock.Clock
	opts    Options
	peers   []TestDataPeer
	// waitlist is repo's waitlist part; nudge wakes the waitlist worker.
	waitlist Waitlist
	nudge    chan struct{}
	// offerClock, when set, is the waitlist's clock (SetWaitlistClock).
	offerClock clock.Clock
}

// New returns a Service on its clock (time.Now in production).
func New(repo Repository, catalog Catalog, c clock.Clock, o Options) *Service {
	return &Service{repo: repo, catalog: catalog, clock: c, opts: o, waitlist: repo, nudge: make(chan struct{}, 1)}
}

// SetTestDataPeers names the peers whose test data a wipe deletes too (checkout, webhooks).
func (s *Service) SetTestDataPeers(peers ...TestDataPeer) { s.peers = peers }

// scopeOf is the scope of a caller's request: its organizer, in its key's mode.
func scopeOf(p identity.Principal) domain.Scope {
	return domain.Scope{OrganizerID: p.OrganizerID, Livemode: p.Livemode()}
}

// event returns the caller's organizer's event, or a not-found error for another organizer's.
func (s *Service) event(ctx context.Context, caller identity.Principal, eventID string) (domain.Event, error) {
	e, err := s.catalog.Event(ctx, caller, eventID)
	if err != nil {
		return domain.Event{}, err
	}
	if e.OrganizerID != caller.OrganizerID {
		return domain.Event{}, domain.NotFound("event", eventID)
	}
	return e, nil
}

// quotaOf returns a lookup of category quotas in e.
func quotaOf(e domain.Event) func(string) *int {
	return func(id string) *int {
		c, _ := e.Category(id)
		return c.Quota
	}
}

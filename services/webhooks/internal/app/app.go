// Package app is the webhooks service's use cases: managing endpoints and their secrets,
// storing each producer event as a message and its deliveries, the delivery log with retry and
// recover, the notice of endpoints disabled for failing, and the retention sweep.
package app

import (
	"context"
	"log/slog"
	"time"

	"github.com/podiumhq/podium/libs/clock"
	"github.com/podiumhq/podium/services/webhooks/internal/domain"
)

// Repository is the service's store.
type Repository interface {
	// CreateEndpoint stores ep with its sealed secret unless its organization and mode have max
	// endpoints already (domain.EndpointLimitError).
	CreateEndpoint(ctx context.Context, ep domain.Endpoint, sealed []byte, max int) error
	Endpoint(ctx context.Context, org Owner, id string) (domain.Endpoint, error)
	Endpoints(ctx context.Context, org Owner, page domain.Page) ([]domain.Endpoint, int, error)
	// UpdateEndpoint applies change to the endpoint; when it disables it, its pending deliveries
	// fail.
	UpdateEndpoint(ctx context.Context, org Owner, id string, now time.Time, change func(*domain.Endpoint) error) (domain.Endpoint, error)
	DeleteEndpoint(ctx context.Context, org Owner, id string) (domain.Endpoint, error)
	// RotateSecret makes sealed the endpoint's current secret; the former one expires at
	// expiresAt.
	RotateSecret(ctx context.Context, org Owner, id string, sealed []byte, now, expiresAt time.Time) (domain.Endpoint, error)
	// StoreEvents stores each of events, in their order, as a message with the object's next
	// sequence and a pending delivery to each enabled endpoint of its organization and mode
	// subscribed to its type, in one transaction that records consumer's processing of their
	// source ids: an event processed before adds nothing. It returns how many events were new
	// and how many deliveries were stored.
	StoreEvents(ctx context.Context, consumer string, events []Received, now time.Time) (fresh, deliveries int, err error)
	// EnqueuePing stores m with one pending delivery to endpointID, unless the endpoint is
	// disabled (domain.ErrEndpointDisabled), deleted, or disabled meanwhile: a disable waits for
	// the delivery and fails it.
	EnqueuePing(ctx context.Context, m domain.Message, endpointID string) (domain.Delivery, error)
	Deliveries(ctx context.Context, endpointID, status string, page domain.Page) ([]domain.Delivery, int, error)
	Delivery(ctx context.Context, endpointID, id string) (domain.Delivery, []domain.Attempt, error)
	// RetryDelivery and RecoverDeliveries make deliveries of an enabled endpoint of org pending
	// and due at now, as EnqueuePing does, refusing a disabled one (domain.ErrEndpointDisabled).
	RetryDelivery(ctx context.Context, org Owner, endpointID, id string, now time.Time) (domain.Delivery, error)
	RecoverDeliveries(ctx context.Context, org Owner, endpointID string, since, now time.Time) (int, error)
	// EndpointsToNotify returns up to limit endpoints disabled for failing whose organization
	// was not told yet and that wait for no later round at now, oldest first.
	EndpointsToNotify(ctx context.Context, now time.Time, limit int) ([]string, error)
	// LeaseNotice takes endpoint id to tell about until until, if it still waits for its
	// notice at now and no other notifier holds it; rounds counts the rounds that tried its
	// notice, this one included.
	LeaseNotice(ctx context.Context, id string, now, until time.Time) (ep domain.Endpoint, rounds int, ok bool, err error)
	// NoticesSent and RecordNoticeSent read and record who was mailed about the disabling
	// of an endpoint at disabledAt.
	NoticesSent(ctx context.Context, id string, disabledAt time.Time) ([]string, error)
	RecordNoticeSent(ctx context.Context, id string, disabledAt time.Time, email string, now time.Time) error
	// MarkNotified marks the endpoint's organization told; RetryNoticeAt leaves its notice to
	// a later round.
	MarkNotified(ctx context.Context, id string, now time.Time) error
	RetryNoticeAt(ctx context.Context, id string, at time.Time) error
	// Sweep deletes up to batch messages created before before (their deliveries and attempts
	// with them).
	Sweep(ctx context.Context, before time.Time, batch int) (int64, error)
	// SweepSecrets deletes the secrets expired by before; PruneInbox the old inbox records.
	SweepSecrets(ctx context.Context, before time.Time) error
	PruneInbox(ctx context.Context) error
	// DeleteTestData deletes the organization's test endpoints (livemode false) with their
	// secrets, deliveries, attempts and messages in one transaction, and counts them.
	DeleteTestData(ctx context.Context, organizerID string) (TestDataDeleted, error)
}

// Owner is whose endpoints a request reaches: an organization in one mode.
type Owner struct {
	OrganizerID string
	Livemode    bool
}

// Options are the deployment's settings.
type Options struct {
	Rules domain.Rules
	// MaxEndpoints is the most endpoints an organization has per mode.
	MaxEndpoints int
	// Retention is how long messages and their deliveries are kept; recover reaches no further.
	Retention time.Duration
	// Wake tells the dispatcher that deliveries are due (buffered; a send never blocks).
	Wake chan<- struct{}
}

// Service runs the use cases.
type Service struct {
	repo   Repository
	sealer *domain.Sealer
	clock  clock.Clock
	log    *slog.Logger
	opts   Options
}

// New returns the use cases over repo.
func New(repo Repository, sealer *domain.Sealer, clk clock.Clock, log *slog.Logger, opts Options) *Service {
	return &Service{repo: repo, sealer: sealer, clock: clk, log: log, opts: opts}
}

// wake tells the dispatcher, without waiting, that a delivery is due.
func (s *Service) wake() {
	select {
	case s.opts.Wake <- struct{}{}:
	default:
	}
}

// every runs fn at once and then every interval until ctx ends.
func every(ctx context.Context, interval time.Duration, fn func(context.Context)) error {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		fn(ctx)
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}

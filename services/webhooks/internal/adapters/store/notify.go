package store

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/podiumhq/podium/services/webhooks/internal/adapters/store/db"
	"github.com/podiumhq/podium/services/webhooks/internal/domain"
)

// EndpointsToNotify returns up to limit endpoints disabled for failing whose organization was
// not told yet and that wait for no later round at now, oldest first.
func (r *Repository) EndpointsToNotify(ctx context.Context, now time.Time, limit int) ([]string, error) {
	return r.q.EndpointsToNotify(ctx, db.EndpointsToNotifyParams{Now: now, Lim: int32(limit)}) //nolint:gosec // a constant
}

// LeaseNotice takes endpoint id to tell about until until, if it still waits for its notice at
// now and no other notifier holds it, in a statement of its own (the mails are sent outside
// any transaction). It returns the endpoint and how many rounds tried its notice, this one
// included; ok is false when it is not to be told about now.
func (r *Repository) LeaseNotice(ctx context.Context, id string, now, until time.Time) (ep domain.Endpoint, rounds int, ok bool, err error) {
	row, err := r.q.LeaseEndpointToNotify(ctx, db.LeaseEndpointToNotifyParams{ID: id, Now: now, LeaseUntil: until})
	if errors.Is(err, pgx.ErrNoRows) {
		return domain.Endpoint{}, 0, false, nil
	}
	if err != nil {
		return domain.Endpoint{}, 0, false, err
	}
	return toEndpoint(row), int(row.NoticeAttempts), true, nil
}

// NoticesSent returns who was mailed about the endpoint's disabling at disabledAt.
func (r *Repository) NoticesSent(ctx context.Context, id string, disabledAt time.Time) ([]string, error) {
	return r.q.NoticesSent(ctx, db.NoticesSentParams{EndpointID: id, DisabledAt: disabledAt})
}

// RecordNoticeSent records that email was mailed about the endpoint's disabling at disabledAt.
func (r *Repository) RecordNoticeSent(ctx context.Context, id string, disabledAt time.Time, email string, now time.Time) error {
	return r.q.RecordNoticeSent(ctx, db.RecordNoticeSentParams{EndpointID: id, DisabledAt: disabledAt, Email: email, SentAt: now})
}

// MarkNotified marks the endpoint's organization told at now.
func (r *Repository) MarkNotified(ctx context.Context, id string, now time.Time) error {
	return r.q.MarkNotified(ctx, db.MarkNotifiedParams{ID: id, NotifiedAt: &now})
}

// RetryNoticeAt leaves the endpoint's notice to a round at at.
func (r *Repository) RetryNoticeAt(ctx context.Context, id string, at time.Time) error {
	return r.q.RetryNoticeAt(ctx, db.RetryNoticeAtParams{ID: id, RetryAt: at})
}

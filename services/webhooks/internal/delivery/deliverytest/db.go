// Package deliverytest gives the delivery tests a database of their own with the webhooks
// schema, rows to deliver, and readers of what was recorded.
package deliverytest

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/podiumhq/podium/libs/ids"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/webhooks/internal/adapters/store"
	"github.com/podiumhq/podium/services/webhooks/internal/delivery"
	"github.com/podiumhq/podium/services/webhooks/migrations"
)

// DB is a migrated database of a test's own.
type DB struct {
	t    testing.TB
	Pool *pgxpool.Pool
}

// NewDB creates the test's database.
func NewDB(t testing.TB) *DB {
	t.Helper()
	return &DB{t: t, Pool: testkit.Pool(t, migrations.Set())}
}

// Store is the deliveries' store on the database. Tests store secrets as their text: Seal
// and unseal are the identity.
func (d *DB) Store() *store.Deliveries {
	return store.NewDeliveries(d.Pool, func(_ string, sealed []byte) (string, error) { return string(sealed), nil })
}

func (d *DB) exec(sql string, args ...any) {
	d.t.Helper()
	if _, err := d.Pool.Exec(context.Background(), sql, args...); err != nil {
		d.t.Fatalf("%s: %v", sql, err)
	}
}

// Endpoint stores an enabled endpoint of url, created at, signing with secrets (the newest
// first, all current), and returns its id.
func (d *DB) Endpoint(url string, at time.Time, secrets ...delivery.Secret) string {
	d.t.Helper()
	return d.EndpointOf("org_test", url, at, secrets...)
}

// EndpointOf stores an endpoint as Endpoint does, of organizer's.
func (d *DB) EndpointOf(organizer, url string, at time.Time, secrets ...delivery.Secret) string {
	d.t.Helper()
	id := ids.New("we_")
	d.exec(`INSERT INTO endpoints (id, organizer_id, livemode, url, event_types, created_at, updated_at)
		VALUES ($1, $4, true, $2, '{order.completed}', $3, $3)`, id, url, at, organizer)
	for i, s := range secrets {
		d.Secret(id, s, at.Add(-time.Duration(i)*time.Minute), nil)
	}
	return id
}

// Secret stores a secret of endpoint created at, expiring at expires (nil: never).
func (d *DB) Secret(endpoint string, s delivery.Secret, created time.Time, expires *time.Time) {
	d.t.Helper()
	d.exec(`INSERT INTO endpoint_secrets (endpoint_id, sealed, created_at, expires_at) VALUES ($1, $2, $3, $4)`,
		endpoint, []byte(s.String()), created, expires)
}

// SetFailingSince sets since when an endpoint fails.
func (d *DB) SetFailingSince(endpoint string, since time.Time) {
	d.t.Helper()
	d.exec(`UPDATE endpoints SET failing_since = $2 WHERE id = $1`, endpoint, since)
}

// Message stores a message with body and returns its id.
func (d *DB) Message(body string, at time.Time) string {
	d.t.Helper()
	id := ids.New("msg_")
	d.exec(`INSERT INTO messages (id, organizer_id, livemode, type, object_id, sequence, occurred_at, body, created_at)
		VALUES ($1, 'org_test', true, 'order.completed', $2, 1, $3, $4, $3)`, id, ids.New("ord_"), at, []byte(body))
	return id
}

// Delivery stores a pending delivery of message to endpoint due at due and returns its id.
func (d *DB) Delivery(endpoint, message string, due time.Time) string {
	d.t.Helper()
	id := ids.New("wd_")
	d.exec(`INSERT INTO deliveries (id, endpoint_id, message_id, next_attempt_at, created_at) VALUES ($1, $2, $3, $4, $4)`,
		id, endpoint, message, due)
	return id
}

// Retried makes a delivery one whose attempts so far are n, the first at first.
func (d *DB) Retried(delivery string, n int, first time.Time) {
	d.t.Helper()
	d.exec(`UPDATE deliveries SET attempts = $2, first_attempt_at = $3 WHERE id = $1`, delivery, n, first)
}

// Delivery is a delivery as stored.
type Delivery struct {
	Status         string
	Attempts       int
	FirstAttemptAt *time.Time
	NextAttemptAt  *time.Time
	LeasedUntil    *time.Time
	LastStatusCode *int
	LastError      *string
	FinishedAt     *time.Time
}

// Get reads a delivery.
func (d *DB) Get(id string) Delivery {
	d.t.Helper()
	var r Delivery
	err := d.Pool.QueryRow(context.Background(), `SELECT status, attempts, first_attempt_at, next_attempt_at, leased_until,
		last_status_code, last_error, finished_at FROM deliveries WHERE id = $1`, id).
		Scan(&r.Status, &r.Attempts, &r.FirstAttemptAt, &r.NextAttemptAt, &r.LeasedUntil, &r.LastStatusCode, &r.LastError, &r.FinishedAt)
	if err != nil {
		d.t.Fatalf("read delivery %s: %v", id, err)
	}
	return r
}

// Attempt is an attempt as stored.
type Attempt struct {
	N          int
	StartedAt  time.Time
	StatusCode *int
	Error      string
	Excerpt    string
}

// Attempts reads a delivery's attempts in order.
func (d *DB) Attempts(delivery string) []Attempt {
	d.t.Helper()
	rows, _ := d.Pool.Query(context.Background(), `SELECT n, started_at, status_code, error, response_excerpt
		FROM attempts WHERE delivery_id = $1 ORDER BY n`, delivery)
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Attempt, error) {
		var a Attempt
		return a, r.Scan(&a.N, &a.StartedAt, &a.StatusCode, &a.Error, &a.Excerpt)
	})
	if err != nil {
		d.t.Fatalf("read attempts of %s: %v", delivery, err)
	}
	return out
}

// Endpoint is an endpoint's state as stored.
type Endpoint struct {
	Status         string
	DisabledReason *string
	DisabledAt     *time.Time
	FailingSince   *time.Time
}

// GetEndpoint reads an endpoint's state.
func (d *DB) GetEndpoint(id string) Endpoint {
	d.t.Helper()
	var e Endpoint
	err := d.Pool.QueryRow(context.Background(), `SELECT status, disabled_reason, disabled_at, failing_since FROM endpoints WHERE id = $1`, id).
		Scan(&e.Status, &e.DisabledReason, &e.DisabledAt, &e.FailingSince)
	if err != nil {
		d.t.Fatalf("read endpoint %s: %v", id, err)
	}
	return e
}

package outbox

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/podiumhq/podium/libs/broker"
)

// Publisher sends messages to the broker; *broker.Writer implements it.
type Publisher interface {
	Publish(ctx context.Context, msgs ...broker.Message) error
}

// Relay moves committed outbox messages to Kafka.
type Relay struct {
	Pool      *pgxpool.Pool
	Publisher Publisher
	Log       *slog.Logger
	// Poll is the fallback interval when no notification arrives. Zero means one second.
	Poll time.Duration
	// Batch is the most messages published at once. Zero means 100.
	Batch int
	// PublishTimeout bounds one publish of a batch, which runs inside the relay's transaction:
	// kept well under the database's idle-in-transaction timeout, a broker outage ends the
	// attempt before Postgres ends the session. Zero means 10 seconds.
	PublishTimeout time.Duration
}

// relayLock is the advisory lock that makes one relay per database active at a time, which
// keeps messages in commit order across replicas.
const relayLock = 0x6f7574626f78 // "outbox"

// Run relays until ctx is done. It wakes on Postgres notifications from Enqueue and polls as a
// fallback, so a lost notification delays a message by at most Poll.
func (r *Relay) Run(ctx context.Context) error {
	poll, batch := r.Poll, r.Batch
	if poll == 0 {
		poll = time.Second
	}
	if batch == 0 {
		batch = 100
	}
	wake := make(chan struct{}, 1)
	go r.listen(ctx, wake)
	for {
		for {
			n, err := r.relayOnce(ctx, batch)
			if err != nil {
				if ctx.Err() != nil {
					return nil
				}
				r.Log.ErrorContext(ctx, "outbox relay failed; retrying", "err", err)
				break
			}
			if n < batch {
				break
			}
		}
		select {
		case <-ctx.Done():
			return nil
		case <-wake:
		case <-time.After(poll):
		}
	}
}

func (r *Relay) publish(ctx context.Context, msgs []broker.Message) error {
	timeout := r.PublishTimeout
	if timeout == 0 {
		timeout = 10 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	return r.Publisher.Publish(ctx, msgs...)
}

// relayOnce publishes up to batch messages in id order and deletes them, all while holding the
// relay lock inside one transaction. It returns how many it relayed.
func (r *Relay) relayOnce(ctx context.Context, batch int) (int, error) {
	n := 0
	err := pgx.BeginFunc(ctx, r.Pool, func(tx pgx.Tx) error {
		var locked bool
		if err := tx.QueryRow(ctx, `SELECT pg_try_advisory_xact_lock($1)`, relayLock).Scan(&locked); err != nil || !locked {
			return err
		}
		rows, err := tx.Query(ctx, `SELECT id, topic, key, payload, headers FROM outbox ORDER BY id LIMIT $1`, batch)
		if err != nil {
			return err
		}
		var ids []int64
		var msgs []broker.Message
		for rows.Next() {
			var id int64
			var m broker.Message
			var headers []byte
			if err := rows.Scan(&id, &m.Topic, &m.Key, &m.Value, &headers); err != nil {
				return err
			}
			if err := json.Unmarshal(headers, &m.Headers); err != nil {
				return fmt.Errorf("outbox: headers of message %d: %w", id, err)
			}
			ids, msgs = append(ids, id), append(msgs, m)
		}
		if err := rows.Err(); err != nil || len(msgs) == 0 {
			return err
		}
		if err := r.publish(ctx, msgs); err != nil {
			return err
		}
		n = len(msgs)
		_, err = tx.Exec(ctx, `DELETE FROM outbox WHERE id = ANY($1)`, ids)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("outbox: relay: %w", err)
	}
	return n, nil
}

// listen forwards Postgres notifications to wake, reconnecting after failures.
func (r *Relay) listen(ctx context.Context, wake chan<- struct{}) {
	for ctx.Err() == nil {
		if err := r.listenOnce(ctx, wake); err != nil && ctx.Err() == nil {
			r.Log.WarnContext(ctx, "outbox listener lost its connection; polling until it is back", "err", err)
			select {
			case <-ctx.Done():
			case <-time.After(time.Second):
			}
		}
	}
}

func (r *Relay) listenOnce(ctx context.Context, wake chan<- struct{}) error {
	conn, err := r.Pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, "LISTEN "+notifyChannel); err != nil {
		return err
	}
	defer conn.Exec(context.Background(), "UNLISTEN "+notifyChannel) //nolint:errcheck,contextcheck // best effort, after ctx ended
	// A row committed before LISTEN took effect (while the relay started, or while this
	// listener was reconnecting) notified nobody: drain once now that every later one will.
	select {
	case wake <- struct{}{}:
	default:
	}
	for {
		if _, err := conn.Conn().WaitForNotification(ctx); err != nil {
			return err
		}
		select {
		case wake <- struct{}{}:
		default:
		}
	}
}

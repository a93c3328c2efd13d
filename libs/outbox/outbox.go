// Package outbox implements the transactional outbox and the consumer inbox.
//
// A service writes a message with Enqueue in the same transaction as the change it describes;
// the Relay publishes committed messages to Kafka in commit order and deletes them once the
// brokers acknowledged them (at-least-once). A consumer applies each message inside Inbox.Once,
// which records the message id in the same transaction as the effect, so redeliveries are no-ops.
package outbox

import (
	"context"
	"crypto/rand"
	"embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/postgres"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// Migrations creates the outbox and inbox tables; services apply it beside their own.
func Migrations() postgres.Migrations {
	sub, err := fs.Sub(migrationFiles, "migrations")
	if err != nil {
		panic(err)
	}
	return postgres.Migrations{Table: "outbox_schema_version", FS: sub}
}

// notifyChannel wakes relays when a message is committed.
const notifyChannel = "outbox_enqueued"

// Event is a message about one aggregate.
type Event struct {
	Topic string
	// Key is the aggregate id: messages with one key keep their order.
	Key string
	// Type is the versioned event type, for example podium.auth.key.revoked.v1.
	Type string
	// Source names the producing service.
	Source string
	// Data is marshalled to JSON as the message value.
	Data any
}

// Enqueue writes e to the outbox inside tx, with a new message id, the current time and the
// trace context of its create span (a child of ctx's span), so that the relay's publish keeps
// the message in the trace that caused it. It returns the message id.
func Enqueue(ctx context.Context, tx pgx.Tx, e Event) (string, error) {
	payload, err := json.Marshal(e.Data)
	if err != nil {
		return "", fmt.Errorf("outbox: marshal %s: %w", e.Type, err)
	}
	id := newMessageID()
	headers := map[string]string{
		broker.HeaderID:          id,
		broker.HeaderType:        e.Type,
		broker.HeaderSource:      e.Source,
		broker.HeaderSpecVersion: "1.0",
		broker.HeaderTime:        time.Now().UTC().Format(time.RFC3339Nano),
		broker.HeaderContentType: "application/json",
	}
	ctx, span := broker.StartCreate(ctx, e.Topic, e.Key, headers)
	defer span.End()
	hb, _ := json.Marshal(headers)
	if _, err := tx.Exec(ctx,
		`INSERT INTO outbox (topic, key, payload, headers) VALUES ($1, $2, $3, $4)`,
		e.Topic, e.Key, payload, hb); err != nil {
		return "", fmt.Errorf("outbox: insert %s: %w", e.Type, err)
	}
	if _, err := tx.Exec(ctx, `SELECT pg_notify($1, '')`, notifyChannel); err != nil {
		return "", fmt.Errorf("outbox: notify: %w", err)
	}
	return id, nil
}

func newMessageID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return "msg_" + hex.EncodeToString(b[:])
}

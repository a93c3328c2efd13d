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

	"github.com/jackc/pgx/v5/pgconn"
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

// Execer runs a statement: a transaction, or a batch that queues the statement into the
// transaction it will run in.
type Execer interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
}

// Enqueue writes e to the outbox inside tx, with a new message id, the current time and the
// trace context of its create span (a child of ctx's span), so that the relay's publish keeps
// the message in the trace that caused it. It returns the message id.
func Enqueue(ctx context.Context, tx Execer, e Event) (string, error) {
	payload, err := json.Marshal(e.Data)
	if err != nil {
		return "", fmt.Errorf("outbox: marshal %s: %w", e.Type, err)
	}
	m := Prepare(ctx, e.Topic, e.Key, e.Type, e.Source)
	if _, err := tx.Exec(ctx,
		`INSERT INTO outbox (topic, key, payload, headers) VALUES ($1, $2, $3, $4)`,
		m.Topic, m.Key, payload, m.Headers); err != nil {
		return "", fmt.Errorf("outbox: insert %s: %w", e.Type, err)
	}
	if err := Notify(ctx, tx); err != nil {
		return "", err
	}
	return m.ID, nil
}

// Message is an outbox row but for its payload. A producer whose payload is built by SQL
// from rows its transaction changed writes the row itself: Prepare gives the topic, key and
// the headers Enqueue would set, the producer's statement inserts them into the outbox table
// (topic, key, payload, headers) with its payload, and Notify is called once in that
// transaction.
type Message struct {
	ID    string
	Topic string
	Key   string
	// Headers is the JSON object of the CloudEvents and trace headers.
	Headers []byte
}

// Prepare returns the message of an event of eventType about key, with a new message id, the
// current time and the trace context of its create span (a child of ctx's span).
func Prepare(ctx context.Context, topic, key, eventType, source string) Message {
	id := newMessageID()
	headers := map[string]string{
		broker.HeaderID:          id,
		broker.HeaderType:        eventType,
		broker.HeaderSource:      source,
		broker.HeaderSpecVersion: "1.0",
		broker.HeaderTime:        time.Now().UTC().Format(time.RFC3339Nano),
		broker.HeaderContentType: "application/json",
	}
	_, span := broker.StartCreate(ctx, topic, key, headers)
	span.End()
	hb, _ := json.Marshal(headers)
	return Message{ID: id, Topic: topic, Key: key, Headers: hb}
}

// Notify wakes the relays once the transaction of tx commits.
func Notify(ctx context.Context, tx Execer) error {
	if _, err := tx.Exec(ctx, `SELECT pg_notify($1, '')`, notifyChannel); err != nil {
		return fmt.Errorf("outbox: notify: %w", err)
	}
	return nil
}

func newMessageID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return "msg_" + hex.EncodeToString(b[:])
}

package outbox_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/outbox"
	"github.com/podiumhq/podium/libs/testkit"
)

// recorder is a Publisher that keeps what it was given and can be made to fail.
type recorder struct {
	msgs     chan broker.Message
	fail     error
	attempts chan struct{} // told of the publish attempts a test waits for
}

func (r *recorder) Publish(_ context.Context, msgs ...broker.Message) error {
	select { // a test waiting for an attempt hears of it; none waiting, none blocks
	case r.attempts <- struct{}{}:
	default:
	}
	if r.fail != nil {
		return r.fail
	}
	for _, m := range msgs {
		r.msgs <- m
	}
	return nil
}

func startRelay(t *testing.T, pool *pgxpool.Pool, pub outbox.Publisher) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	r := &outbox.Relay{Pool: pool, Publisher: pub, Log: testkit.Logger(t), Poll: 50 * time.Millisecond}
	go func() { done <- r.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("relay: %v", err)
		}
	})
}

func enqueue(t *testing.T, pool *pgxpool.Pool, key string, commit bool) {
	t.Helper()
	ctx := t.Context()
	rollback := errors.New("rolled back on purpose")
	err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		if _, err := outbox.Enqueue(ctx, tx, outbox.Event{Topic: "things.v1", Key: key, Type: "podium.thing.made.v1", Source: "test", Data: map[string]string{"id": key}}); err != nil {
			return err
		}
		if !commit {
			return rollback
		}
		return nil
	})
	if commit && err != nil || !commit && !errors.Is(err, rollback) {
		t.Fatalf("enqueue %s: %v", key, err)
	}
}

func TestRelayPublishesCommittedMessagesInOrder(t *testing.T) {
	pool := testkit.Pool(t, outbox.Migrations())
	rec := &recorder{msgs: make(chan broker.Message, 100)}
	startRelay(t, pool, rec)

	enqueue(t, pool, "k0", true)
	enqueue(t, pool, "rolled-back", false)
	for i := 1; i < 5; i++ {
		enqueue(t, pool, fmt.Sprintf("k%d", i), true)
	}
	for i := range 5 {
		select {
		case m := <-rec.msgs:
			if m.Key != fmt.Sprintf("k%d", i) || string(m.Value) != fmt.Sprintf(`{"id":"k%d"}`, i) {
				t.Fatalf("message %d is %s %s", i, m.Key, m.Value)
			}
			if m.Headers[broker.HeaderType] != "podium.thing.made.v1" || m.Headers[broker.HeaderID] == "" || m.Headers[broker.HeaderSource] != "test" {
				t.Fatalf("headers %v", m.Headers)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("message %d not relayed", i)
		}
	}
	waitEmpty(t, pool)
	select {
	case m := <-rec.msgs:
		t.Fatalf("unexpected extra message %s (a rolled-back one?)", m.Key)
	case <-time.After(200 * time.Millisecond):
	}
}

// TestAMessageWrittenByTheProducersStatementIsRelayed: a producer that builds the payload in
// SQL writes the row with Prepare's headers and calls Notify; the relay (whose poll is too slow
// for the test) publishes it like an enqueued one.
func TestAMessageWrittenByTheProducersStatementIsRelayed(t *testing.T) {
	pool := testkit.Pool(t, outbox.Migrations())
	rec := &recorder{msgs: make(chan broker.Message, 10)}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	r := &outbox.Relay{Pool: pool, Publisher: rec, Log: testkit.Logger(t), Poll: time.Hour}
	go func() { done <- r.Run(ctx) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("relay: %v", err)
		}
	}()
	m := outbox.Prepare(ctx, "things.v1", "k-sql", "podium.thing.counted.v1", "test")
	err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO outbox (topic, key, payload, headers)
			SELECT $1, $2, convert_to(json_build_object('n', count(*))::text, 'UTF8'), $3 FROM generate_series(1, 3)`,
			m.Topic, m.Key, m.Headers); err != nil {
			return err
		}
		return outbox.Notify(ctx, tx)
	})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case got := <-rec.msgs:
		if got.Key != "k-sql" || string(got.Value) != `{"n" : 3}` || got.Headers[broker.HeaderID] != m.ID ||
			got.Headers[broker.HeaderType] != "podium.thing.counted.v1" || got.Headers[broker.HeaderSource] != "test" {
			t.Fatalf("relayed %s %s %v", got.Key, got.Value, got.Headers)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the message was not relayed on its notification")
	}
}

func TestFailedPublishKeepsMessages(t *testing.T) {
	pool := testkit.Pool(t, outbox.Migrations())
	enqueue(t, pool, "k0", true)
	attempts := make(chan struct{})
	startRelay(t, pool, &recorder{fail: errors.New("brokers down"), attempts: attempts})
	for range 3 { // the relay has failed twice and tries again
		<-attempts
	}
	var n int
	if err := pool.QueryRow(t.Context(), "SELECT count(*) FROM outbox").Scan(&n); err != nil || n != 1 {
		t.Fatalf("outbox holds %d messages after failed publishes (%v), want 1", n, err)
	}
}

func TestRelayToKafka(t *testing.T) {
	pool := testkit.Pool(t, outbox.Migrations())
	brokers := testkit.Kafka(t)
	w := broker.NewWriter(broker.Cluster{Brokers: brokers})
	defer w.Close()
	startRelay(t, pool, w)
	enqueue(t, pool, "k-kafka", true)

	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	got := make(chan broker.Message, 1)
	cfg := broker.ConsumerConfig{Cluster: broker.Cluster{Brokers: brokers}, Group: "t", Topics: []string{"things.v1"}, Log: testkit.Logger(t)}
	go func() {
		_ = broker.Consume(ctx, cfg, func(_ context.Context, m broker.Message) error { got <- m; return nil })
	}()
	select {
	case m := <-got:
		if m.Key != "k-kafka" {
			t.Fatalf("got %s", m.Key)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("message did not reach Kafka")
	}
}

func TestInboxAppliesEachMessageOnce(t *testing.T) {
	pool := testkit.Pool(t, outbox.Migrations())
	ctx := t.Context()
	if _, err := pool.Exec(ctx, "CREATE TABLE counter (n int); INSERT INTO counter VALUES (0)"); err != nil {
		t.Fatal(err)
	}
	bump := func(tx pgx.Tx) error { _, err := tx.Exec(ctx, "UPDATE counter SET n = n + 1"); return err }
	for i, want := range []bool{true, false, false} {
		ran, err := outbox.Once(ctx, pool, "projector", "msg_1", bump)
		if err != nil || ran != want {
			t.Fatalf("delivery %d: ran=%v err=%v, want ran=%v", i, ran, err, want)
		}
	}
	if ran, err := outbox.Once(ctx, pool, "other-consumer", "msg_1", bump); err != nil || !ran {
		t.Fatalf("a second consumer did not get the message: ran=%v err=%v", ran, err)
	}
	failing := errors.New("apply failed")
	if _, err := outbox.Once(ctx, pool, "projector", "msg_2", func(pgx.Tx) error { return failing }); !errors.Is(err, failing) {
		t.Fatalf("got %v", err)
	}
	if ran, err := outbox.Once(ctx, pool, "projector", "msg_2", bump); err != nil || !ran {
		t.Fatalf("a failed message was recorded as processed: ran=%v err=%v", ran, err)
	}
	var n int
	if err := pool.QueryRow(ctx, "SELECT n FROM counter").Scan(&n); err != nil || n != 3 {
		t.Fatalf("counter = %d, want 3", n)
	}
	if pruned, err := outbox.PruneInbox(ctx, pool, 0); err != nil || pruned != 3 {
		t.Fatalf("pruned %d (%v), want 3", pruned, err)
	}
}

func TestInboxGivesABatchTheMessagesNotProcessedYetInOrderOnce(t *testing.T) {
	pool := testkit.Pool(t, outbox.Migrations())
	ctx := t.Context()
	if _, err := outbox.Once(ctx, pool, "projector", "msg_2", func(pgx.Tx) error { return nil }); err != nil {
		t.Fatal(err)
	}
	var given []string
	fresh, err := outbox.OnceEach(ctx, pool, "projector", []string{"msg_3", "msg_1", "msg_2", "msg_3", "msg_4"}, func(_ pgx.Tx, ids []string) error {
		given = ids
		return nil
	})
	want := []string{"msg_3", "msg_1", "msg_4"}
	if err != nil || !slices.Equal(fresh, want) || !slices.Equal(given, want) {
		t.Fatalf("OnceEach = %v (%v), apply given %v; want %v", fresh, err, given, want)
	}
	called := false
	fresh, err = outbox.OnceEach(ctx, pool, "projector", []string{"msg_1", "msg_4"}, func(pgx.Tx, []string) error { called = true; return nil })
	if err != nil || len(fresh) != 0 || called {
		t.Fatalf("a batch processed before: fresh %v err %v, apply called %v", fresh, err, called)
	}
	failing := errors.New("apply failed")
	if _, err := outbox.OnceEach(ctx, pool, "projector", []string{"msg_5", "msg_6"}, func(pgx.Tx, []string) error { return failing }); !errors.Is(err, failing) {
		t.Fatalf("got %v", err)
	}
	if fresh, err := outbox.OnceEach(ctx, pool, "projector", []string{"msg_6", "msg_5"}, func(pgx.Tx, []string) error { return nil }); err != nil || !slices.Equal(fresh, []string{"msg_6", "msg_5"}) {
		t.Fatalf("a failed batch was recorded: fresh %v err %v", fresh, err)
	}
	if _, err := outbox.OnceEach(ctx, pool, "projector", []string{"msg_7", ""}, func(pgx.Tx, []string) error { return nil }); err == nil {
		t.Fatal("a batch with a message without id was applied")
	}
}

func waitEmpty(t *testing.T, pool *pgxpool.Pool) {
	t.Helper()
	testkit.Eventually(t, 5*time.Second, func() string {
		var n int
		if err := pool.QueryRow(t.Context(), "SELECT count(*) FROM outbox").Scan(&n); err != nil {
			return err.Error()
		}
		if n > 0 {
			return fmt.Sprintf("the outbox still holds %d messages", n)
		}
		return ""
	})
}

// stalled is a Publisher whose broker never answers: each publish waits for its context.
type stalled struct{ ended chan error }

func (s stalled) Publish(ctx context.Context, _ ...broker.Message) error {
	<-ctx.Done()
	s.ended <- ctx.Err()
	return ctx.Err()
}

func TestAStalledPublishEndsAtItsTimeoutAndKeepsTheMessage(t *testing.T) {
	pool := testkit.Pool(t, outbox.Migrations())
	enqueue(t, pool, "k0", true)
	pub := stalled{ended: make(chan error, 10)}
	ctx, cancel := context.WithCancel(t.Context())
	r := &outbox.Relay{Pool: pool, Publisher: pub, Log: testkit.Logger(t), Poll: 50 * time.Millisecond, PublishTimeout: 100 * time.Millisecond}
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()
	for range 2 { // the relay gave up on a publish and tried again
		if err := <-pub.ended; !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("publish ended with %v, want its deadline", err)
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	var n int
	if err := pool.QueryRow(t.Context(), "SELECT count(*) FROM outbox").Scan(&n); err != nil || n != 1 {
		t.Fatalf("outbox holds %d messages after stalled publishes (%v), want 1", n, err)
	}
}

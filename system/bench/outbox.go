package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/ids"
	"github.com/podiumhq/podium/libs/outbox"
	"github.com/podiumhq/podium/system/stack"
)

// Shape and targets of the outbox scenario.
const (
	outboxRate    = 1000   // events per second committed
	outboxBacklog = 20_000 // events committed at once for the drain
	outboxP50     = 20 * time.Millisecond
	outboxP99     = 100 * time.Millisecond
	outboxTopic   = "bench.outbox.v1"
)

// tick is the data of one bench event: its sequence number and when its transaction began to
// commit.
type tick struct {
	Seq    int       `json:"seq"`
	SentAt time.Time `json:"sentAt"`
}

// OutboxLatency commits events to registration's outbox at outboxRate, each in its own
// transaction, and measures the time from the commit to a consumer group's handler (through
// registration's own relay and the stack's broker); then commits a backlog in one transaction
// and measures how fast it drains.
func OutboxLatency(ctx context.Context, s *stack.Stack, _ *stack.Demo, o RunOptions, out io.Writer) error {
	pool, err := pgxpool.New(ctx, s.DatabaseURL("registration"))
	if err != nil {
		return err
	}
	defer pool.Close()
	if err := broker.EnsureTopics(ctx, broker.Cluster{Brokers: s.KafkaBrokers}, 3, 1, outboxTopic); err != nil {
		return err
	}
	h := newTickHandler()
	cctx, stop := context.WithCancel(ctx)
	defer stop()
	joined := make(chan struct{})
	go func() {
		_ = broker.Consume(cctx, broker.ConsumerConfig{
			Cluster: broker.Cluster{Brokers: s.KafkaBrokers}, Group: "bench-outbox-" + ids.Random("", 8), Topics: []string{outboxTopic},
			StartAtEnd: true, Log: slog.New(slog.DiscardHandler), Joined: sync.OnceFunc(func() { close(joined) }),
		}, h.handle)
	}()
	select {
	case <-joined:
	case <-time.After(30 * time.Second):
		return errors.New("bench: the outbox consumer did not join its group")
	}

	d := time.Duration(o.Rounds) * o.Round
	sent, err := commitTicks(ctx, pool, outboxRate, d)
	if err != nil {
		return err
	}
	lat, err := h.wait(ctx, sent)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "\nOutbox to consumer: %d events at %d/s, each committed alone, through registration's relay and the broker to a consumer group\n", sent, outboxRate)
	p50, p99 := quantileOf(lat, 0.5), quantileOf(lat, 0.99)
	fmt.Fprintf(out, "  commit to handled: p50 %s (target <= %s: %s)   p99 %s (target <= %s: %s)   max %s\n",
		ms(p50), ms(outboxP50), verdict(p50 <= outboxP50), ms(p99), ms(outboxP99), verdict(p99 <= outboxP99), ms(time.Duration(lat.Max())))

	h.reset()
	start := time.Now()
	if err := commitBacklog(ctx, pool, outboxBacklog); err != nil {
		return err
	}
	if _, err := h.wait(ctx, outboxBacklog); err != nil {
		return err
	}
	took := time.Since(start)
	fmt.Fprintf(out, "  a backlog of %d events committed at once drained in %s: %.0f events/s\n", outboxBacklog, ms(took), float64(outboxBacklog)/took.Seconds())
	return nil
}

// commitTicks commits one tick per transaction at rate per second for d and returns how many it
// committed.
func commitTicks(ctx context.Context, pool *pgxpool.Pool, rate int, d time.Duration) (int, error) {
	return commitAtRate(ctx, rate, d, func(n int) error { return commitOne(ctx, pool, n) })
}

// commitAtRate calls commit (one transaction each) at rate per second for d, from 8 workers,
// with 1, 2, 3..., and returns how many it called.
func commitAtRate(ctx context.Context, rate int, d time.Duration, commit func(n int) error) (int, error) {
	jobs := make(chan time.Time, 64)
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		seq      int
		firstErr error
	)
	for range 8 {
		wg.Go(func() {
			for range jobs {
				mu.Lock()
				seq++
				n := seq
				mu.Unlock()
				if err := commit(n); err != nil {
					mu.Lock()
					firstErr = firstOf(firstErr, err)
					mu.Unlock()
				}
			}
		})
	}
	schedule(ctx, jobs, Options{Rate: rate, Duration: d}, time.Now(), time.Sleep)
	wg.Wait()
	return seq, firstErr
}

func commitOne(ctx context.Context, pool *pgxpool.Pool, n int) error {
	return pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		_, err := outbox.Enqueue(ctx, tx, tickEvent(n))
		return err
	})
}

// commitBacklog commits n events in one transaction.
func commitBacklog(ctx context.Context, pool *pgxpool.Pool, n int) error {
	return pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		for i := range n {
			if _, err := outbox.Enqueue(ctx, tx, tickEvent(i)); err != nil {
				return err
			}
		}
		return nil
	})
}

func tickEvent(n int) outbox.Event {
	return outbox.Event{
		Topic: outboxTopic, Key: strconv.Itoa(n % 64), Type: "podium.bench.tick.v1", Source: "podium/bench",
		Data: tick{Seq: n, SentAt: time.Now()},
	}
}

// tickHandler records when each event was handled, relative to its SentAt.
type tickHandler struct {
	mu      sync.Mutex
	lat     *hdrhistogram.Histogram
	handled int
	arrived chan struct{}
}

func newTickHandler() *tickHandler {
	return &tickHandler{lat: newHistogram(), arrived: make(chan struct{}, 1)}
}

func (h *tickHandler) handle(_ context.Context, m broker.Message) error {
	var t tick
	if err := json.Unmarshal(m.Value, &t); err != nil {
		return broker.Poison(err)
	}
	h.mu.Lock()
	_ = h.lat.RecordValue(int64(time.Since(t.SentAt)))
	h.handled++
	h.mu.Unlock()
	select {
	case h.arrived <- struct{}{}:
	default:
	}
	return nil
}

func (h *tickHandler) reset() {
	h.mu.Lock()
	h.lat.Reset()
	h.handled = 0
	h.mu.Unlock()
}

// wait returns the latencies once n events were handled, or fails after 60 s without one
// (a latency past the histogram's minute is left out of it but counted as handled).
func (h *tickHandler) wait(ctx context.Context, n int) (*hdrhistogram.Histogram, error) {
	for {
		h.mu.Lock()
		got := h.handled
		h.mu.Unlock()
		if got >= n {
			h.mu.Lock()
			defer h.mu.Unlock()
			return hdrhistogram.Import(h.lat.Export()), nil
		}
		select {
		case <-h.arrived:
		case <-time.After(60 * time.Second):
			return nil, fmt.Errorf("bench: %d of %d outbox events handled, none in the last 60s", got, n)
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

func firstOf(first, err error) error {
	if first != nil {
		return first
	}
	return err
}

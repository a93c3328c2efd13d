package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/ids"
	"github.com/podiumhq/podium/system/stack"
)

// Shape and targets of the webhooks scenario.
const (
	webhookEndpoints = 100     // organizers, each with one endpoint
	webhookRate      = 500     // events per second committed, over every endpoint
	webhookBacklog   = 100_000 // events committed at once for the drain, one delivery each
	webhookP50       = 50 * time.Millisecond
	webhookP99       = 250 * time.Millisecond
)

// WebhookFanout measures webhooks from the producer's commit to the receiver's handler: a
// registration.updated event committed alone to registration's outbox at webhookRate, spread
// over webhookEndpoints organizers with one endpoint each (a loopback receiver answering 204
// at once), through registration's relay, the broker, the webhooks service's consumer and
// dispatcher. Its baseline, in alternating rounds at the same rate, is the outbox scenario's
// path: commit to a consumer group's handler through the same relay and broker. Then a
// backlog of webhookBacklog events committed at once drains, beside the same backlog of the
// outbox's own.
func WebhookFanout(ctx context.Context, s *stack.Stack, _ *stack.Demo, o RunOptions, out io.Writer) error {
	pool, err := pgxpool.New(ctx, s.DatabaseURL("registration"))
	if err != nil {
		return err
	}
	defer pool.Close()
	whPool, err := heldConnection(ctx, s.DatabaseURL("webhooks"))
	if err != nil {
		return err
	}
	defer whPool.Close()
	recv, organizers, err := webhookReceivers(ctx, s)
	if err != nil {
		return err
	}
	defer recv.close()
	u, err := newUpdates(organizers)
	if err != nil {
		return err
	}
	ticks, stop, err := tickConsumer(ctx, s)
	if err != nil {
		return err
	}
	defer stop()

	procs := map[string]int{}
	for _, name := range stack.Services {
		procs[name] = s.PID(name)
	}
	cpuBefore, err := cpuTimes(procs)
	if err != nil {
		return err
	}
	roundsStart := time.Now()
	var sentTicks, sentHooks int
	for range o.Rounds {
		n, err := commitTicks(ctx, pool, webhookRate, o.Round)
		if err != nil {
			return err
		}
		sentTicks += n
		if _, err := ticks.wait(ctx, sentTicks); err != nil {
			return err
		}
		first := sentHooks
		n, err = commitAtRate(ctx, webhookRate, o.Round, func(n int) error { return u.commitUpdate(ctx, pool, recv, first+n) })
		if err != nil {
			return err
		}
		sentHooks += n
		if _, _, _, err := recv.wait(ctx, sentHooks); err != nil {
			return err
		}
	}
	base, err := ticks.wait(ctx, sentTicks)
	if err != nil {
		return err
	}
	lat, _, doubled, err := recv.wait(ctx, sentHooks)
	if err != nil {
		return err
	}
	cpuAfter, err := cpuTimes(procs)
	if err != nil {
		return err
	}
	elapsed := time.Since(roundsStart)
	fmt.Fprintf(out, "\nWebhooks, commit to receiver: %d registration.updated events at %d/s over %d endpoints (one organizer each, a loopback receiver answering 204), each committed alone to registration's outbox, through its relay, the broker and the webhooks service\n",
		sentHooks, webhookRate, webhookEndpoints)
	p50, p99 := quantileOf(lat, 0.5), quantileOf(lat, 0.99)
	fmt.Fprintf(out, "  commit to receiver's handler: p50 %s (target <= %s: %s)   p99 %s (target <= %s: %s)   max %s   (%d delivered twice)\n",
		ms(p50), ms(webhookP50), verdict(p50 <= webhookP50), ms(p99), ms(webhookP99), verdict(p99 <= webhookP99), ms(time.Duration(lat.Max())), doubled)
	fmt.Fprintf(out, "  baseline, outbox to consumer (%d events at %d/s, same rounds, alternating): p50 %s   p99 %s   max %s\n",
		sentTicks, webhookRate, ms(quantileOf(base, 0.5)), ms(quantileOf(base, 0.99)), ms(time.Duration(base.Max())))

	if err := webhookStages(ctx, whPool, out); err != nil {
		return err
	}
	commits, err := serialCommits(ctx, whPool, 3*time.Second)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "  baseline, one insert committed at a time on the same Postgres for 3s: %.0f commits/s, p50 %s p99 %s\n",
		float64(commits.TotalCount())/3, ms(quantileOf(commits, 0.5)), ms(quantileOf(commits, 0.99)))
	fmt.Fprintf(out, "  cores kept busy over both paths' rounds (%s):", ms(elapsed))
	for _, name := range stack.Services {
		fmt.Fprintf(out, " %s %.2f", name, (cpuAfter[name]-cpuBefore[name]).Seconds()/elapsed.Seconds())
	}
	fmt.Fprintln(out)

	ticks.reset()
	outboxDrain, err := drainTicks(ctx, pool, ticks)
	if err != nil {
		return err
	}
	recv.reset()
	d, err := drainWebhooks(ctx, pool, whPool, u, recv, sentHooks+1)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "  a backlog of %d events committed at once (%d deliveries, %d per endpoint), from the commit: all stored as deliveries in %s (%.0f/s), all received in %s: %.0f deliveries/s; %s\n",
		webhookBacklog, webhookBacklog, webhookBacklog/webhookEndpoints, ms(d.stored), float64(webhookBacklog)/d.stored.Seconds(),
		ms(d.received), float64(webhookBacklog)/d.received.Seconds(), d.afterStored())
	fmt.Fprintf(out, "  baseline, the outbox's own: a backlog of %d events committed at once drained to a consumer in %s: %.0f events/s\n",
		webhookBacklog, ms(outboxDrain), float64(webhookBacklog)/outboxDrain.Seconds())
	return nil
}

// webhookReceivers starts a receiver per endpoint and registers each as the one endpoint of
// an organizer of its own, subscribed to registration.updated; it returns the organizers in
// the receivers' order.
func webhookReceivers(ctx context.Context, s *stack.Stack) (*receivers, []string, error) {
	recv, err := startReceivers(webhookEndpoints)
	if err != nil {
		return nil, nil, err
	}
	organizers := make([]string, webhookEndpoints)
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		firstErr error
	)
	limit := make(chan struct{}, 8)
	// The gateway looks each new key up at most 20 times a second per address.
	lookups := time.NewTicker(time.Second / 15)
	defer lookups.Stop()
	for i := range webhookEndpoints {
		wg.Go(func() {
			limit <- struct{}{}
			defer func() { <-limit }()
			org, err := webhookOrganizer(ctx, s, i, recv.urls[i], lookups.C)
			mu.Lock()
			defer mu.Unlock()
			organizers[i], firstErr = org, firstOf(firstErr, err)
		})
	}
	wg.Wait()
	if firstErr != nil {
		recv.close()
		return nil, nil, firstErr
	}
	return recv, organizers, nil
}

// webhookOrganizer creates an organizer with a webhooks:write key and registers url as its
// endpoint through the gateway at the next tick of lookups.
func webhookOrganizer(ctx context.Context, s *stack.Stack, i int, url string, lookups <-chan time.Time) (string, error) {
	org, err := s.CreateOrganizer(ctx, fmt.Sprintf("Webhooks bench %d", i), "")
	if err != nil {
		return "", err
	}
	key, err := s.CreateKey(ctx, org, stack.KeySpec{Type: "secret", Name: "webhooks bench", Scopes: []string{"webhooks:write"}})
	if err != nil {
		return "", err
	}
	<-lookups
	_, err = s.CreateWebhookEndpoint(ctx, key.Key, url, "bench receiver", []string{"registration.updated"})
	return org, err
}

// tickConsumer starts a consumer group of its own on the outbox scenario's topic, from its
// end, and returns its handler once it joined.
func tickConsumer(ctx context.Context, s *stack.Stack) (*tickHandler, func(), error) {
	if err := broker.EnsureTopics(ctx, broker.Cluster{Brokers: s.KafkaBrokers}, 3, 1, outboxTopic); err != nil {
		return nil, nil, err
	}
	h := newTickHandler()
	cctx, stop := context.WithCancel(ctx)
	joined := make(chan struct{})
	go func() {
		_ = broker.Consume(cctx, broker.ConsumerConfig{
			Cluster: broker.Cluster{Brokers: s.KafkaBrokers}, Group: "bench-outbox-" + ids.Random("", 8), Topics: []string{outboxTopic},
			StartAtEnd: true, Log: slog.New(slog.DiscardHandler), Joined: sync.OnceFunc(func() { close(joined) }),
		}, h.handle)
	}()
	select {
	case <-joined:
		return h, stop, nil
	case <-time.After(30 * time.Second):
		stop()
		return nil, nil, errors.New("bench: the outbox consumer did not join its group")
	}
}

// drainTicks commits webhookBacklog ticks at once and returns the time from their commit
// until the consumer handled the last.
func drainTicks(ctx context.Context, pool *pgxpool.Pool, h *tickHandler) (time.Duration, error) {
	if err := commitBacklog(ctx, pool, webhookBacklog); err != nil {
		return 0, err
	}
	committed := time.Now()
	if _, err := h.wait(ctx, webhookBacklog); err != nil {
		return 0, err
	}
	return time.Since(committed), nil
}

// drain is how a backlog of webhooks drained, from its commit.
type drain struct {
	// stored is when every event was a stored delivery; receivedAtStored how many had
	// arrived by then.
	stored           time.Duration
	receivedAtStored int
	received         time.Duration
}

// afterStored tells how the dispatcher did once every delivery was stored.
func (d drain) afterStored() string {
	left := webhookBacklog - d.receivedAtStored
	if left <= 0 || d.received <= d.stored {
		return "the dispatcher kept up: each arrived as soon as it was stored (the count is read every 250ms)"
	}
	return fmt.Sprintf("%d arrived after the last was stored, at %.0f/s", left, float64(left)/(d.received-d.stored).Seconds())
}

// drainWebhooks commits webhookBacklog updates at once, numbered from first, and times their
// storage as deliveries (counted in the webhooks database) and their arrival.
func drainWebhooks(ctx context.Context, pool, whPool *pgxpool.Pool, u *updates, recv *receivers, first int) (drain, error) {
	var before int
	if err := whPool.QueryRow(ctx, "SELECT count(*) FROM deliveries").Scan(&before); err != nil {
		return drain{}, err
	}
	if err := u.commitUpdates(ctx, pool, recv, first, webhookBacklog); err != nil {
		return drain{}, err
	}
	committed := time.Now()
	var d drain
	stored, progressed := 0, time.Now()
	for {
		var n int
		if err := whPool.QueryRow(ctx, "SELECT count(*) FROM deliveries").Scan(&n); err != nil {
			return drain{}, err
		}
		if n-before >= webhookBacklog {
			d.stored, d.receivedAtStored = time.Since(committed), recv.received()
			break
		}
		if n-before > stored {
			stored, progressed = n-before, time.Now()
		} else if time.Since(progressed) > time.Minute {
			return drain{}, fmt.Errorf("bench: %d of %d deliveries stored, none in the last 60s", stored, webhookBacklog)
		}
		select {
		case <-ctx.Done():
			return drain{}, ctx.Err()
		case <-time.After(250 * time.Millisecond):
		}
	}
	_, last, _, err := recv.wait(ctx, webhookBacklog)
	if err != nil {
		return drain{}, err
	}
	d.received = last.Sub(committed)
	return d, nil
}

// heldConnection opens a pool of one connection, made at once and kept, so that the
// scenario's own reads do not compete for Postgres's connections with the services'.
func heldConnection(ctx context.Context, url string) (*pgxpool.Pool, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, err
	}
	cfg.MaxConns, cfg.MinConns = 1, 1
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	return pool, nil
}

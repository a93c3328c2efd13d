package broker

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime/debug"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
)

// Retry policy of failing messages.
const (
	// FirstBackoff is the wait after a message's first failed attempt.
	FirstBackoff = 100 * time.Millisecond
	// MaxBackoff caps the wait between attempts: a consumer whose dependency is back is at
	// most that long from resuming.
	MaxBackoff = 30 * time.Second
)

var meter = otel.Meter("github.com/podiumhq/podium/libs/broker")

var (
	retries, _ = meter.Int64Counter("broker.retries",
		metric.WithDescription("Failed attempts of a message that is tried again (a failure of something the handler depends on, or a panic)."))
	retrying, _ = meter.Int64UpDownCounter("broker.retrying",
		metric.WithDescription("Messages being retried now, each holding back its partition."))
	deadLetters, _ = meter.Int64Counter("broker.dead_letters",
		metric.WithDescription("Messages moved to a dead-letter topic, by original topic and reason (poison or panic)."))
)

// DefaultBackoff doubles the wait from FirstBackoff up to MaxBackoff, keeping a random half of
// it (jitter), so consumers waiting for the same dependency do not retry in step.
func DefaultBackoff(attempt int) time.Duration {
	d := MaxBackoff
	if attempt < 20 {
		d = min(FirstBackoff<<max(attempt-1, 0), MaxBackoff)
	}
	return d/2 + rand.N(d/2+1) //nolint:gosec // jitter needs no cryptographic randomness
}

// handle calls the handler until it succeeds, returns a poison error or ctx ends. A panic is a
// failure like any other until the handler panicked maxPanics times on m: then m is poison.
func (c *consumer) handle(ctx context.Context, m Message) error {
	attrs := metric.WithAttributeSet(attribute.NewSet(attribute.String("topic", m.Topic)))
	held := false
	defer func() {
		if held {
			retrying.Add(context.WithoutCancel(ctx), -1, attrs)
		}
	}()
	panics := 0
	for attempt := 1; ; attempt++ {
		err := call(ctx, c.h, []Message{m})
		if err == nil || IsPoison(err) || ctx.Err() != nil {
			return err
		}
		wait := c.backoff(attempt)
		if p, ok := err.(*panicError); ok { //nolint:errorlint // call returns it unwrapped
			panics++
			c.cfg.Log.ErrorContext(ctx, "message handler panicked", append(c.position(m, attempt), "panic", p.value, "stack", p.stack)...)
			if panics >= c.maxPanics {
				return Poison(err)
			}
		} else {
			c.cfg.Log.WarnContext(ctx, "message handler failed; retrying", append(c.position(m, attempt), "retry_in", wait.String(), "err", err)...)
		}
		if !held {
			held = true
			retrying.Add(ctx, 1, attrs)
		}
		retries.Add(ctx, 1, attrs)
		if err := sleep(ctx, wait); err != nil {
			return err
		}
	}
}

// position is the log attributes of m's attempt.
func (c *consumer) position(m Message, attempt int) []any {
	return []any{"topic", m.Topic, "partition", m.Partition, "offset", m.Offset, "group", c.cfg.Group, "attempt", attempt}
}

// panicError is a panic of a handler, recovered.
type panicError struct {
	value string
	stack string
}

func (e *panicError) Error() string { return "handler panicked: " + e.value }

// call runs h, turning a panic into a *panicError.
func call(ctx context.Context, h BatchHandler, ms []Message) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = &panicError{value: fmt.Sprint(v), stack: string(debug.Stack())}
		}
	}()
	return h(ctx, ms)
}

// sleep waits d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

package broker

import (
	"context"
	"errors"
	"log/slog"
	"sync/atomic"
	"time"
)

// Consumer runs Consume until its context ends, restarting it a second after a broker failure,
// and tells readiness whether it has joined its group once.
type Consumer struct {
	Config ConsumerConfig
	// Handler handles one message at a time (Consume), unless Batches is set
	// (ConsumeBatches).
	Handler Handler
	Batches BatchHandler
	// Topics, if set, makes sure the consumed topics exist before each start.
	Topics func(context.Context) error
	Log    *slog.Logger
	joined atomic.Bool
}

// Run consumes until ctx is done.
func (c *Consumer) Run(ctx context.Context) error {
	cfg := c.Config
	joined := cfg.Joined
	cfg.Joined = func() {
		c.joined.Store(true)
		c.Log.Info("consumer joined its group", "group", cfg.Group, "topics", cfg.Topics)
		if joined != nil {
			joined()
		}
	}
	for {
		var err error
		if c.Topics != nil {
			err = c.Topics(ctx)
		}
		switch {
		case err != nil:
		case c.Batches != nil:
			err = ConsumeBatches(ctx, cfg, c.Batches)
		default:
			err = Consume(ctx, cfg, c.Handler)
		}
		if ctx.Err() != nil {
			return nil
		}
		c.Log.ErrorContext(ctx, "consumer stopped; restarting", "group", cfg.Group, "err", err)
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(time.Second):
		}
	}
}

// Ready fails until the consumer first joined its group.
func (c *Consumer) Ready(context.Context) error {
	if !c.joined.Load() {
		return errors.New("not yet subscribed to " + c.Config.Group)
	}
	return nil
}

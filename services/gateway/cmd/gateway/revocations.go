package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"log/slog"
	"os"
	"sync/atomic"
	"time"

	"github.com/podiumhq/podium/libs/broker"
	gwconfig "github.com/podiumhq/podium/services/gateway/internal/config"
	"github.com/podiumhq/podium/services/gateway/internal/keys"
)

// revocationListener applies auth's key events to this instance's key cache. Each instance has a
// consumer group of its own, so every instance sees every event, read from the topic's start
// (replaying old revocations is harmless and closes the window before the group is joined).
type revocationListener struct {
	cfg    broker.ConsumerConfig
	store  *keys.Store
	joined atomic.Bool
	log    *slog.Logger
	topics func(context.Context) error
}

func newRevocationListener(cfg gwconfig.Config, store *keys.Store, log *slog.Logger) *revocationListener {
	l := &revocationListener{store: store, log: log}
	l.cfg = broker.ConsumerConfig{
		Brokers: cfg.KafkaBrokers, Group: "gateway-" + cfg.InstanceID, Topics: []string{keys.Topic},
		Log: log, Joined: func() { l.joined.Store(true); log.Info("listening for key revocations", "topic", keys.Topic) },
	}
	l.topics = func(ctx context.Context) error {
		return broker.EnsureTopics(ctx, cfg.KafkaBrokers, 3, 1, keys.Topic)
	}
	return l
}

// run consumes until ctx is done, restarting after broker failures.
func (l *revocationListener) run(ctx context.Context) error {
	for {
		err := l.topics(ctx)
		if err == nil {
			err = broker.Consume(ctx, l.cfg, l.store.HandleEvent)
		}
		if ctx.Err() != nil {
			return nil
		}
		l.log.ErrorContext(ctx, "key event consumer stopped; restarting", "err", err)
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(time.Second):
		}
	}
}

func (l *revocationListener) ready(context.Context) error {
	if !l.joined.Load() {
		return errors.New("not yet subscribed to key events")
	}
	return nil
}

// instanceID names this process uniquely: the host name plus random bits, since restarted pods
// keep their names.
func instanceID() string {
	host, _ := os.Hostname()
	var b [4]byte
	_, _ = rand.Read(b[:])
	return host + "-" + hex.EncodeToString(b[:])
}

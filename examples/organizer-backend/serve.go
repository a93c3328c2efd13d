package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// serveWebhooks receives Podium's webhooks on addr at /webhooks until interrupted, logging
// each event it applies.
func serveWebhooks(addr, secret string) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	log := slog.New(slog.NewJSONHandler(os.Stdout, nil))
	r, err := NewReceiver(secret, func(h Webhook) {
		log.Info("webhook applied", "id", h.ID, "type", h.Type, "objectId", h.Data.ObjectID, "sequence", h.Data.Sequence)
	})
	if err != nil {
		return fmt.Errorf("PODIUM_WEBHOOK_SECRET: %w", err)
	}
	go r.Process()
	defer r.Close()
	mux := http.NewServeMux()
	mux.Handle("POST /webhooks", r)
	srv := &http.Server{Addr: addr, Handler: mux, ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 10 * time.Second}
	failed := make(chan error, 1)
	go func() { failed <- srv.ListenAndServe() }()
	log.Info("receiving webhooks", "url", "http://"+addr+"/webhooks")
	select {
	case err := <-failed:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

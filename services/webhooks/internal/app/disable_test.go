package app_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/webhooks/internal/app"
	"github.com/podiumhq/podium/services/webhooks/internal/domain"
	"github.com/podiumhq/podium/services/webhooks/internal/webhookstest"
)

// disableDuring disables ep as the organizer does, running start while the disable holds the
// endpoint's row and waiting until what start began waits for that lock before committing.
func disableDuring(t *testing.T, e *webhookstest.Env, ep domain.Endpoint, start func()) {
	t.Helper()
	_, err := e.Repo.UpdateEndpoint(t.Context(), owner, ep.ID, e.Clock.Now(), func(locked *domain.Endpoint) error {
		start()
		testkit.Eventually(t, 10*time.Second, func() string {
			var waiting int
			if err := e.Pool.QueryRow(t.Context(), `SELECT count(*) FROM pg_stat_activity
				WHERE datname = current_database() AND wait_event_type = 'Lock'`).Scan(&waiting); err != nil {
				t.Fatal(err)
			}
			if waiting == 0 {
				return "nothing waits for the endpoint's lock"
			}
			return ""
		})
		locked.Status, locked.DisabledReason = domain.StatusDisabled, domain.DisabledOrganizer
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// An endpoint disabled while an event is fanned out, a ping queued or a delivery recovered
// keeps no pending delivery: each waits for the disable and then sees the endpoint disabled.
func TestAConcurrentDisableLeavesNoPendingDelivery(t *testing.T) {
	e := webhookstest.Start(t, webhookstest.Options{})
	at := time.Date(2026, 5, 9, 18, 0, 0, 0, time.UTC)
	e.Clock.Set(at)
	event := domain.Event{Type: domain.OrderCompleted, OrganizerID: org, Livemode: true, ObjectID: "ord_1", OccurredAt: at, Object: json.RawMessage(`{}`)}
	for name, c := range map[string]struct {
		run  func(ep domain.Endpoint) error
		want error
	}{
		"fan-out": {func(domain.Endpoint) error {
			in, err := e.Service.Ingest(context.Background(), []app.Received{{SourceID: "src_" + fmt.Sprint(time.Now().UnixNano()), Event: event}})
			if err == nil && in.Deliveries != 0 {
				err = fmt.Errorf("%d deliveries to the disabled endpoint", in.Deliveries)
			}
			return err
		}, nil},
		"ping": {func(ep domain.Endpoint) error {
			_, err := e.Service.Test(context.Background(), owner, ep.ID)
			return err
		}, domain.ErrEndpointDisabled},
		"recover": {func(ep domain.Endpoint) error {
			_, err := e.Service.Recover(context.Background(), owner, ep.ID, at.Add(-time.Hour))
			return err
		}, domain.ErrEndpointDisabled},
	} {
		t.Run(name, func(t *testing.T) {
			ep := endpoint(t, e, owner, domain.OrderCompleted)
			done := make(chan error, 1)
			disableDuring(t, e, ep, func() { go func() { done <- c.run(ep) }() })
			if err := <-done; !errors.Is(err, c.want) {
				t.Fatalf("got %v, want %v", err, c.want)
			}
			var pending int
			if err := e.Pool.QueryRow(t.Context(), `SELECT count(*) FROM deliveries WHERE endpoint_id = $1 AND status = 'pending'`, ep.ID).Scan(&pending); err != nil || pending != 0 {
				t.Fatalf("%d pending deliveries to the disabled endpoint (%v)", pending, err)
			}
		})
	}
}

// Fanning an event out does not wait for an attempt of the endpoint being recorded (which
// locks the endpoint's row FOR NO KEY UPDATE while it decides whether the endpoint fails).
func TestFanOutDoesNotWaitForAnAttemptBeingRecorded(t *testing.T) {
	e := webhookstest.Start(t, webhookstest.Options{})
	at := time.Date(2026, 5, 9, 18, 0, 0, 0, time.UTC)
	e.Clock.Set(at)
	ep := endpoint(t, e, owner, domain.OrderCompleted)
	recording, err := e.Pool.Begin(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = recording.Rollback(context.Background()) }()
	if _, err := recording.Exec(t.Context(), `SELECT failing_since FROM endpoints WHERE id = $1 FOR NO KEY UPDATE`, ep.ID); err != nil {
		t.Fatal(err)
	}
	// Were the fan-out to wait for that lock, it would wait until this bound.
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	event := domain.Event{Type: domain.OrderCompleted, OrganizerID: org, Livemode: true, ObjectID: "ord_1", OccurredAt: at, Object: json.RawMessage(`{}`)}
	if in, err := e.Service.Ingest(ctx, []app.Received{{SourceID: "src_1", Event: event}}); err != nil || in.Deliveries != 1 {
		t.Fatalf("fan-out while an attempt is recorded: %+v %v", in, err)
	}
}

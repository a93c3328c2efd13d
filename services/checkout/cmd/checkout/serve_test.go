package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/config"
	"github.com/podiumhq/podium/libs/telemetry"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/checkout/internal/adapters/events"
	"github.com/podiumhq/podium/services/checkout/internal/adapters/store"
	"github.com/podiumhq/podium/services/checkout/internal/app"
	"github.com/podiumhq/podium/services/checkout/internal/checkouttest"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// TestReadinessWaitsForTheOrderEventsConsumer: the served checkout is not ready until its
// order-events consumer joined its group, so that no instance takes traffic while the
// registration events it must settle go unread.
func TestReadinessWaitsForTheOrderEventsConsumer(t *testing.T) {
	vars, _ := validEnv(t)
	testkit.SetEnv(t, vars)
	cfg, err := config.Load[Config]()
	if err != nil {
		t.Fatal(err)
	}
	log := testkit.Logger(t)
	tel, err := telemetry.Setup(t.Context(), telemetry.Options{Service: "checkout"})
	if err != nil {
		t.Fatal(err)
	}
	defer tel.Close(log)
	brokers := testkit.Kafka(t)
	if err := broker.EnsureTopics(t.Context(), broker.Cluster{Brokers: brokers}, 1, 1, domain.OrdersTopic); err != nil {
		t.Fatal(err)
	}
	pool := checkouttest.Pool(t)
	svc := app.New(store.New(pool), nil, nil, nil, log, app.Options{})
	orders := (&events.OrdersConsumer{Cluster: broker.Cluster{Brokers: brokers}, Handler: svc, Log: log}).Consumer()
	srv, err := newServer(cfg, log, pool, tel, svc, orders.Ready)
	if err != nil {
		t.Fatal(err)
	}
	readyz := func() (int, string) {
		res, err := srv.App.Test(httptest.NewRequestWithContext(t.Context(), http.MethodGet, "/readyz", nil), -1)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var body struct{ Message string }
		_ = json.NewDecoder(res.Body).Decode(&body)
		return res.StatusCode, body.Message
	}
	if status, msg := readyz(); status != http.StatusServiceUnavailable || msg != "order-events consumer is not ready" {
		t.Fatalf("before the consumer joined: %d %q, want 503 naming the consumer", status, msg)
	}
	testkit.Background(t, orders.Run)
	testkit.Eventually(t, 30*time.Second, func() string {
		if status, msg := readyz(); status != http.StatusOK {
			return fmt.Sprintf("once the consumer runs: %d %q, want 200", status, msg)
		}
		return ""
	})
}

package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/config"
	"github.com/podiumhq/podium/libs/telemetry"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/registration/internal/adapters/events"
	"github.com/podiumhq/podium/services/registration/internal/regtest"
)

// TestReadinessFollowsThePaymentsConsumer: the served /readyz fails, naming the payments
// consumer, until the consumer has joined its group, and passes once it has.
func TestReadinessFollowsThePaymentsConsumer(t *testing.T) {
	env := regtest.Start(t, regtest.Options{Kafka: true})
	vars, _ := validEnv(t)
	testkit.SetEnv(t, vars)
	cfg, err := config.Load[Config]()
	if err != nil {
		t.Fatal(err)
	}
	tel, err := telemetry.Setup(t.Context(), telemetry.Options{Service: "registration"})
	if err != nil {
		t.Fatal(err)
	}
	log := testkit.Logger(t)
	joined := make(chan struct{}, 1)
	payments := events.Consumer(broker.Cluster{Brokers: env.Brokers}, env.Service, log, func() {
		select {
		case joined <- struct{}{}:
		default:
		}
	})
	srv, err := newServer(cfg, log, env.Pool, tel, env.Service, payments.Ready)
	if err != nil {
		t.Fatal(err)
	}
	readyz := func() (int, string) {
		res, err := srv.App.Test(httptest.NewRequestWithContext(t.Context(), http.MethodGet, "/readyz", nil), -1)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		raw, _ := io.ReadAll(res.Body)
		var b struct{ Message string }
		_ = json.Unmarshal(raw, &b)
		return res.StatusCode, b.Message
	}

	if status, msg := readyz(); status != http.StatusServiceUnavailable || msg != "payments consumer is not ready" {
		t.Fatalf("/readyz before the consumer joined: %d %q", status, msg)
	}
	testkit.Background(t, payments.Run)
	select {
	case <-joined:
	case <-time.After(30 * time.Second):
		t.Fatal("the payments consumer did not join its group within 30s")
	}
	if status, msg := readyz(); status != http.StatusOK {
		t.Fatalf("/readyz once the consumer joined: %d %q", status, msg)
	}
}

package main

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/broker/brokertest"
	"github.com/podiumhq/podium/libs/config"
	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/libs/testkit"
	gwconfig "github.com/podiumhq/podium/services/gateway/internal/config"
	"github.com/podiumhq/podium/services/gateway/internal/edge"
	"github.com/podiumhq/podium/services/gateway/internal/edgecache"
	"github.com/podiumhq/podium/services/gateway/internal/keys"
)

func TestDeadLettersCommandListsTheGatewaysOwn(t *testing.T) {
	brokertest.DeadLettersCommand(t, func(args []string, out *bytes.Buffer) error { return program.Run(t.Context(), args, out) },
		edgecache.CatalogTopic, "gateway-edge-pod-1", "catalog")
}

func TestHelpAndUnknownCommand(t *testing.T) {
	var out bytes.Buffer
	if err := program.Run(t.Context(), []string{"help"}, &out); err != nil || !bytes.Contains(out.Bytes(), []byte("gateway dead-letters replay")) {
		t.Fatalf("help: %v\n%s", err, out.String())
	}
	if err := program.Run(t.Context(), []string{"frobnicate"}, &out); err == nil {
		t.Fatal("an unknown command was accepted")
	}
}

// TestReadinessWaitsForEveryListener: /readyz fails, naming the listener, until the key events
// listener and then the catalog changes listener have joined their groups.
func TestReadinessWaitsForEveryListener(t *testing.T) {
	cfg := gwconfig.Config{
		Kafka:      config.Kafka{KafkaBrokers: testkit.Kafka(t), KafkaTopicPartitions: 1, KafkaReplicationFactor: 1},
		InstanceID: "readiness-test",
	}
	t0 := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	gw := &edge.Gateway{
		Keys: keys.NewStore(nil, keys.Options{TTL: time.Minute, NegativeTTL: time.Minute, OriginTTL: time.Minute}),
		Edge: edgecache.New(10, 1<<20, time.Second, func() time.Time { return t0 }),
	}
	log := testkit.Logger(t)
	listeners := newListeners(cfg, broker.Cluster{Brokers: cfg.KafkaBrokers}, gw, log)
	srv := httpserver.New(httpserver.Options{Log: log, Ready: readiness(listeners)})
	ln, err := (&net.ListenConfig{}).Listen(t.Context(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	testkit.Background(t, func(ctx context.Context) error { return srv.Serve(ctx, ln, time.Second) })
	url := "http://" + ln.Addr().String() + "/readyz"
	wantReadiness := func(status int, message any) {
		t.Helper()
		testkit.Eventually(t, 20*time.Second, func() string {
			r := testkit.Do(t, http.MethodGet, url, nil, nil)
			if r.Status != status || (message != nil && r.Body["message"] != message) {
				return fmt.Sprintf("/readyz answered %d %s, want %d %v", r.Status, r.Raw, status, message)
			}
			return ""
		})
	}

	wantReadiness(http.StatusServiceUnavailable, "key events listener is not ready")
	testkit.Background(t, listeners[0].Run)
	wantReadiness(http.StatusServiceUnavailable, "catalog changes listener is not ready")
	testkit.Background(t, listeners[1].Run)
	wantReadiness(http.StatusOK, nil)
}

package api_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/apikey"
	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/auth/internal/authtest"
	"github.com/podiumhq/podium/services/auth/internal/domain"
)

func TestRevokePublishesKeyRevokedEvent(t *testing.T) {
	env := authtest.Start(t, authtest.Options{Kafka: true})
	org := env.Organizer(t, "Trail Club")
	k := env.Key(t, org, map[string]any{"type": "publishable", "name": "site", "allowedOrigins": []string{"https://shop.example"}})
	revoked := env.Admin(t, http.MethodPost, "/admin/keys/"+k["id"].(string)+"/revoke", nil)
	if revoked.Status != http.StatusOK {
		t.Fatalf("revoke: %d %s", revoked.Status, revoked.Raw)
	}

	got := make(chan broker.Message, 10)
	testkit.Background(t, func(ctx context.Context) error {
		return broker.Consume(ctx, broker.ConsumerConfig{
			Cluster: broker.Cluster{Brokers: env.Brokers}, Group: "gateway-test", Topics: []string{domain.KeysTopic}, Log: testkit.Logger(t),
		}, func(_ context.Context, m broker.Message) error { got <- m; return nil })
	})

	types := map[string]broker.Message{}
	deadline := time.After(30 * time.Second)
	for len(types) < 2 {
		select {
		case m := <-got:
			types[m.Headers[broker.HeaderType]] = m
		case <-deadline:
			t.Fatalf("received only %d event types within 30s", len(types))
		}
	}
	m, ok := types[domain.EventKeyRevoked]
	if !ok {
		t.Fatalf("no %s event among %v", domain.EventKeyRevoked, types)
	}
	if m.Key != k["id"] || m.Headers[broker.HeaderSource] != domain.EventSource || m.Headers[broker.HeaderID] == "" ||
		m.Headers[broker.HeaderContentType] != "application/json" {
		t.Fatalf("revoked message key %q headers %v", m.Key, m.Headers)
	}
	var data map[string]any
	if err := json.Unmarshal(m.Value, &data); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"keyId": k["id"], "keyHash": apikey.Hash(k["key"].(string)), "organizerId": org, "livemode": true, "revokedAt": revoked.Body["revokedAt"]}
	if len(data) != len(want) {
		t.Fatalf("revoked event data %v, want %v", data, want)
	}
	for f, v := range want {
		if data[f] != v {
			t.Fatalf("revoked event %s = %v, want %v", f, data[f], v)
		}
	}
	created := types[domain.EventKeyCreated]
	if created.Key != k["id"] {
		t.Fatalf("created message key %q", created.Key)
	}
}

package api_test

import (
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/catalog/internal/catalogtest"
	"github.com/podiumhq/podium/services/catalog/internal/domain"
)

// TestImportsPublishEventChanged reads catalog.events.v1 as another service would: one
// message per import that changed the event, keyed by event id, with the new version and the
// event as the organizer API shows it. The messages of one event arrive in commit order, so a
// message of the unchanged import would come second, with version 1.
func TestImportsPublishEventChanged(t *testing.T) {
	env := catalogtest.Start(t, catalogtest.Options{Kafka: true})
	file := catalogtest.Event("e", "E", "DRAFT", false)
	id := env.Import(t, orgA, file).Body["id"].(string)
	env.Import(t, orgA, file) // unchanged: no message
	env.ImportRaw(t, orgA, "e", "application/yaml", catalogtest.Event("e", "E", "PUBLISHED", false))

	got := make(chan broker.Message, 10)
	testkit.Background(t, func(ctx context.Context) error {
		return broker.Consume(ctx, broker.ConsumerConfig{
			Cluster: broker.Cluster{Brokers: env.Brokers}, Group: "registration-test", Topics: []string{domain.EventsTopic}, Log: testkit.Logger(t),
		}, func(_ context.Context, m broker.Message) error { got <- m; return nil })
	})
	var versions []float64
	var object any
	deadline := time.After(30 * time.Second)
	for len(versions) < 2 {
		select {
		case m := <-got:
			if m.Key != id || m.Headers[broker.HeaderType] != domain.EventChangedType || m.Headers[broker.HeaderSource] != domain.EventSource ||
				m.Headers[broker.HeaderID] == "" || m.Headers[broker.HeaderContentType] != "application/json" {
				t.Fatalf("message key %q headers %v", m.Key, m.Headers)
			}
			var data map[string]any
			if err := json.Unmarshal(m.Value, &data); err != nil || len(data) != 6 || data["eventId"] != id || data["organizerId"] != orgA ||
				data["livemode"] != true || data["occurredAt"] == nil {
				t.Fatalf("data %s", m.Value)
			}
			versions, object = append(versions, data["version"].(float64)), data["object"]
		case <-deadline:
			t.Fatalf("received %d messages within 30s, want 2", len(versions))
		}
	}
	if versions[0] != 1 || versions[1] != 2 {
		t.Fatalf("versions %v, want [1 2]", versions)
	}
	detail := env.Do(t, http.MethodGet, "/external/v1/organizer/events/"+id, nil, allScopes(t, env, orgA))
	var want any
	if err := json.Unmarshal(detail.Raw, &want); err != nil || !reflect.DeepEqual(object, want) {
		t.Fatalf("object %v\nwant the organizer detail %s", object, detail.Raw)
	}
}

package events_test

import (
	"fmt"
	"maps"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/webhooks/internal/api"
	"github.com/podiumhq/podium/services/webhooks/internal/domain"
	"github.com/podiumhq/podium/services/webhooks/internal/webhookstest"
)

// An event with livemode false goes only to the test endpoints (those created with a test
// key), a live one and one from a producer without the field only to the live endpoints.
func TestEventsGoToEndpointsOfTheirMode(t *testing.T) {
	e := webhookstest.Start(t, webhookstest.Options{Kafka: true})
	create := map[string]any{"url": "https://hooks.example.com/podium", "eventTypes": []string{domain.OrderCompleted}}
	endpoints := map[string]string{}
	for mode, token := range map[string]string{"live": e.Secret(t, org), "test": e.TestSecret(t, org)} {
		r := e.Do(t, http.MethodPost, api.ExternalBase, create, token)
		if r.Status != http.StatusCreated {
			t.Fatalf("create %s: %d %s", mode, r.Status, r.Raw)
		}
		endpoints[r.Body["id"].(string)] = mode
	}
	for source, livemode := range map[string]string{"src_test": `"livemode":false,`, "src_live": `"livemode":true,`, "src_bare": ``} {
		order := "ord_" + source
		e.Publish(t, domain.OrdersTopic, order, source, domain.SourceOrderCompleted, fmt.Appendf(nil,
			`{"orderId":%q,"eventId":"evt_1","organizerId":%q,%s"completedAt":"2026-05-09T18:03:21.447Z","object":{"orderId":%q,"status":"COMPLETED"}}`,
			order, org, livemode, order))
	}
	want := map[string][]string{"src_test": {"test"}, "src_live": {"live"}, "src_bare": {"live"}}
	testkit.Eventually(t, 30*time.Second, func() string {
		rows, err := e.Pool.Query(t.Context(), `SELECT m.source_id, m.livemode, d.endpoint_id FROM deliveries d JOIN messages m ON m.id = d.message_id`)
		if err != nil {
			return err.Error()
		}
		defer rows.Close()
		got := map[string][]string{}
		for rows.Next() {
			var source, endpoint string
			var livemode bool
			if err := rows.Scan(&source, &livemode, &endpoint); err != nil {
				return err.Error()
			}
			got[source] = append(got[source], endpoints[endpoint])
			if mode := map[bool]string{true: "live", false: "test"}[livemode]; mode != endpoints[endpoint] {
				return fmt.Sprintf("a %s message of %s went to a %s endpoint", mode, source, endpoints[endpoint])
			}
		}
		if !maps.EqualFunc(got, want, slices.Equal) {
			return fmt.Sprintf("deliveries by source %v, want %v", got, want)
		}
		return ""
	})
}

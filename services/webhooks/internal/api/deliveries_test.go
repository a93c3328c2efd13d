package api_test

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/podiumhq/podium/services/webhooks/internal/domain"
	"github.com/podiumhq/podium/services/webhooks/internal/webhookstest"
)

// fail records what the dispatcher would after a final failed attempt n of delivery id.
func fail(t *testing.T, e *webhookstest.Env, id string, n int, at time.Time) {
	t.Helper()
	if _, err := e.Pool.Exec(t.Context(), `INSERT INTO attempts (delivery_id, n, started_at, status_code, latency_ms, error) VALUES ($1, $2, $3, 500, 12, 'status 500')`, id, n, at); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Pool.Exec(t.Context(), `UPDATE deliveries SET status = 'failed', attempts = $2, next_attempt_at = NULL, finished_at = $3,
		last_status_code = 500, last_latency_ms = 12, last_error = 'status 500' WHERE id = $1`, id, n, at); err != nil {
		t.Fatal(err)
	}
}

func TestPingRetryAndRecover(t *testing.T) {
	each(t, func(t *testing.T, as func(*webhookstest.Env, string) client) {
		e := webhookstest.Start(t, webhookstest.Options{})
		at := time.Date(2026, 5, 9, 18, 0, 0, 0, time.UTC)
		e.Clock.Set(at)
		c := as(e, orgA)
		id := c.create("https://hooks.example.com/", domain.OrderCompleted).Body["id"].(string)

		e.Woken()
		r := c.do(http.MethodPost, "/"+id+"/test", nil)
		d, _ := r.Body["delivery"].(map[string]any)
		if r.Status != http.StatusAccepted || d["type"] != domain.Ping || d["status"] != "pending" || d["nextAttemptAt"] != "2026-05-09T18:00:00Z" || !e.Woken() {
			t.Fatalf("test: %d %s (dispatcher woken: false)", r.Status, r.Raw)
		}
		var body []byte
		var source *string
		if err := e.Pool.QueryRow(t.Context(), `SELECT body, source_id FROM messages WHERE id = $1`, d["messageId"]).Scan(&body, &source); err != nil {
			t.Fatal(err)
		}
		var ping domain.Body
		if err := json.Unmarshal(body, &ping); err != nil || ping.Type != domain.Ping || ping.Data.ObjectID != id || ping.Data.Sequence != 0 ||
			ping.Timestamp != "2026-05-09T18:00:00.000Z" || source != nil {
			t.Fatalf("ping message %s: %v", body, err)
		}

		deliveryID := d["id"].(string)
		fail(t, e, deliveryID, 1, at.Add(time.Minute))
		second := c.do(http.MethodPost, "/"+id+"/test", nil).Body["delivery"].(map[string]any)["id"].(string)
		fail(t, e, second, 1, at.Add(time.Minute))

		failed := c.do(http.MethodGet, "/"+id+"/deliveries?status=failed&limit=1", nil)
		if data, _ := failed.Body["data"].([]any); failed.Status != http.StatusOK || len(data) != 1 || failed.Body["total"] != 2.0 {
			t.Fatalf("failed deliveries: %d %s", failed.Status, failed.Raw)
		}
		one := c.do(http.MethodGet, "/"+id+"/deliveries/"+deliveryID, nil)
		log, _ := one.Body["attemptLog"].([]any)
		if one.Status != http.StatusOK || one.Body["status"] != "failed" || one.Body["lastStatusCode"] != 500.0 || len(log) != 1 ||
			log[0].(map[string]any)["error"] != "status 500" {
			t.Fatalf("delivery: %d %s", one.Status, one.Raw)
		}

		e.Clock.Set(at.Add(time.Hour))
		retried := c.do(http.MethodPost, "/"+id+"/deliveries/"+deliveryID+"/retry", nil)
		if retried.Status != http.StatusAccepted || retried.Body["status"] != "pending" || retried.Body["nextAttemptAt"] != "2026-05-09T19:00:00Z" ||
			retried.Body["finishedAt"] != nil || retried.Body["attempts"] != 1.0 || !e.Woken() {
			t.Fatalf("retry: %d %s", retried.Status, retried.Raw)
		}
		recovered := c.do(http.MethodPost, "/"+id+"/recover", map[string]any{"since": "2026-05-01T00:00:00Z"})
		if recovered.Status != http.StatusAccepted || recovered.Body["recovered"] != 1.0 || !e.Woken() {
			t.Fatalf("recover: %d %s", recovered.Status, recovered.Raw)
		}
		if r := c.do(http.MethodPost, "/"+id+"/recover", map[string]any{"since": "2026-05-01T00:00:00Z"}); r.Body["recovered"] != 0.0 {
			t.Fatalf("recover again: %s", r.Raw)
		}

		if r := c.do(http.MethodPatch, "/"+id, map[string]any{"enabled": false}); r.Status != http.StatusOK {
			t.Fatalf("disable: %d %s", r.Status, r.Raw)
		}
		pending := c.do(http.MethodGet, "/"+id+"/deliveries?status=pending", nil)
		if pending.Body["total"] != 0.0 {
			t.Fatalf("pending deliveries of a disabled endpoint: %s", pending.Raw)
		}
		if got := c.do(http.MethodGet, "/"+id+"/deliveries/"+second, nil); got.Body["status"] != "failed" || got.Body["lastError"] != "endpoint disabled" {
			t.Fatalf("a pending delivery of a disabled endpoint: %s", got.Raw)
		}
		for _, path := range []string{"/" + id + "/test", "/" + id + "/deliveries/" + deliveryID + "/retry"} {
			if r := c.do(http.MethodPost, path, nil); r.Status != http.StatusConflict || r.Body["code"] != domain.CodeEndpointDisabled {
				t.Fatalf("%s of a disabled endpoint: %d %s", path, r.Status, r.Raw)
			}
		}
	})
}

// Another organization's endpoint and delivery ids answer 404 on every route, as unknown ids
// do, and its lists are empty.
func TestAnotherOrganizationsIdsAreNotFound(t *testing.T) {
	each(t, func(t *testing.T, as func(*webhookstest.Env, string) client) {
		e := webhookstest.Start(t, webhookstest.Options{})
		a, b := as(e, orgA), as(e, orgB)
		id := a.create("https://hooks.example.com/", domain.OrderCompleted).Body["id"].(string)
		delivery := a.do(http.MethodPost, "/"+id+"/test", nil).Body["delivery"].(map[string]any)["id"].(string)
		own := b.create("https://b.example.com/", domain.OrderCompleted).Body["id"].(string)
		for _, r := range []struct {
			method, path string
			body         any
		}{
			{http.MethodGet, "/" + id, nil},
			{http.MethodPatch, "/" + id, map[string]any{"enabled": false}},
			{http.MethodDelete, "/" + id, nil},
			{http.MethodPost, "/" + id + "/rotate-secret", nil},
			{http.MethodPost, "/" + id + "/test", nil},
			{http.MethodPost, "/" + id + "/recover", map[string]any{"since": "2026-01-01T00:00:00Z"}},
			{http.MethodGet, "/" + id + "/deliveries", nil},
			{http.MethodGet, "/" + id + "/deliveries/" + delivery, nil},
			{http.MethodPost, "/" + id + "/deliveries/" + delivery + "/retry", nil},
			{http.MethodGet, "/" + own + "/deliveries/" + delivery, nil},
			{http.MethodPost, "/" + own + "/deliveries/" + delivery + "/retry", nil},
		} {
			if got := b.do(r.method, r.path, r.body); got.Status != http.StatusNotFound {
				t.Errorf("%s %s as another organization: %d %s", r.method, r.path, got.Status, got.Raw)
			}
		}
		if list := b.do(http.MethodGet, "", nil); list.Body["total"] != 1.0 {
			t.Fatalf("another organization's list: %s", list.Raw)
		}
		if got := a.do(http.MethodGet, "/"+id, nil); got.Status != http.StatusOK || got.Body["status"] != "enabled" {
			t.Fatalf("the endpoint after the other organization's calls: %s", got.Raw)
		}
	})
}

package api_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/webhooks/internal/api"
	"github.com/podiumhq/podium/services/webhooks/internal/domain"
	"github.com/podiumhq/podium/services/webhooks/internal/webhookstest"
)

// An endpoint created with a test key is a test endpoint (livemode false, also in the table);
// each mode lists and reaches only its own endpoints, and the console sees the live ones.
func TestTestKeysManageTestEndpoints(t *testing.T) {
	e := webhookstest.Start(t, webhookstest.Options{})
	e.Clock.Set(time.Date(2026, 5, 9, 18, 0, 0, 0, time.UTC))
	do := func(method, path, token string, body any) testkit.Response {
		return e.Do(t, method, api.ExternalBase+path, body, token)
	}
	live, test := e.Secret(t, orgA), e.TestSecret(t, orgA)
	create := map[string]any{"url": "https://hooks.example.com/podium", "eventTypes": []string{domain.OrderCompleted}}
	testEp, liveEp := do(http.MethodPost, "", test, create), do(http.MethodPost, "", live, create)
	if testEp.Status != http.StatusCreated || testEp.Body["livemode"] != false || liveEp.Status != http.StatusCreated || liveEp.Body["livemode"] != true {
		t.Fatalf("created with a test key: %d %s; with a live key: %d %s", testEp.Status, testEp.Raw, liveEp.Status, liveEp.Raw)
	}
	testID, liveID := testEp.Body["id"].(string), liveEp.Body["id"].(string)
	var stored bool
	if err := e.Pool.QueryRow(t.Context(), `SELECT livemode FROM endpoints WHERE id = $1`, testID).Scan(&stored); err != nil || stored {
		t.Fatalf("the test endpoint's row: livemode %v (%v), want false", stored, err)
	}
	for _, c := range []struct {
		base, token, own, other string
	}{{api.ExternalBase, test, testID, liveID}, {api.ExternalBase, live, liveID, testID}, {api.InternalBase, e.Console(t, orgA), liveID, testID}} {
		list := e.Do(t, http.MethodGet, c.base, nil, c.token)
		data, _ := list.Body["data"].([]any)
		if list.Status != http.StatusOK || list.Body["total"] != 1.0 || len(data) != 1 || data[0].(map[string]any)["id"] != c.own {
			t.Fatalf("list: %d %s, want only %s", list.Status, list.Raw, c.own)
		}
		if r := e.Do(t, http.MethodGet, c.base+"/"+c.other, nil, c.token); r.Status != http.StatusNotFound {
			t.Fatalf("the other mode's endpoint: %d %s, want 404", r.Status, r.Raw)
		}
	}
}

// rows counts an organization's rows of one mode in every table the wipe may touch.
func rows(t *testing.T, e *webhookstest.Env, org string, live bool) map[string]int {
	t.Helper()
	out := map[string]int{}
	for table, query := range map[string]string{
		"endpoints":  `SELECT count(*) FROM endpoints WHERE organizer_id = $1 AND livemode = $2`,
		"secrets":    `SELECT count(*) FROM endpoint_secrets s JOIN endpoints e ON e.id = s.endpoint_id WHERE e.organizer_id = $1 AND e.livemode = $2`,
		"messages":   `SELECT count(*) FROM messages WHERE organizer_id = $1 AND livemode = $2`,
		"deliveries": `SELECT count(*) FROM deliveries d JOIN endpoints e ON e.id = d.endpoint_id WHERE e.organizer_id = $1 AND e.livemode = $2`,
		"attempts": `SELECT count(*) FROM attempts a JOIN deliveries d ON d.id = a.delivery_id JOIN endpoints e ON e.id = d.endpoint_id
			WHERE e.organizer_id = $1 AND e.livemode = $2`,
	} {
		var n int
		if err := e.Pool.QueryRow(context.Background(), query, org, live).Scan(&n); err != nil {
			t.Fatal(err)
		}
		out[table] = n
	}
	return out
}

// withData gives org a live and two test endpoints, each with a ping attempted once.
func withData(t *testing.T, e *webhookstest.Env, org string) {
	t.Helper()
	create := map[string]any{"url": "https://hooks.example.com/podium", "eventTypes": []string{domain.OrderCompleted}}
	for _, token := range []string{e.Secret(t, org), e.TestSecret(t, org), e.TestSecret(t, org)} {
		ep := e.Do(t, http.MethodPost, api.ExternalBase, create, token)
		id, _ := ep.Body["id"].(string)
		ping := e.Do(t, http.MethodPost, api.ExternalBase+"/"+id+"/test", nil, token)
		delivery, _ := ping.Body["delivery"].(map[string]any)
		if ep.Status != http.StatusCreated || ping.Status != http.StatusAccepted || delivery == nil {
			t.Fatalf("create: %d %s; ping: %d %s", ep.Status, ep.Raw, ping.Status, ping.Raw)
		}
		if _, err := e.Pool.Exec(t.Context(), `INSERT INTO attempts (delivery_id, n, started_at, status_code, latency_ms) VALUES ($1, 1, now(), 500, 12)`,
			delivery["id"]); err != nil {
			t.Fatal(err)
		}
	}
}

// Registration's wipe deletes the organizer's test endpoints with their secrets, messages,
// deliveries and attempts, answers their counts, and touches no live row nor another
// organizer's; a second wipe deletes nothing. Only registration may call it, for a test
// principal of the path's organizer.
func TestRegistrationWipesTestData(t *testing.T) {
	e := webhookstest.Start(t, webhookstest.Options{})
	e.Clock.Set(time.Date(2026, 5, 9, 18, 0, 0, 0, time.UTC))
	withData(t, e, orgA)
	withData(t, e, orgB)
	before := map[string]map[string]int{
		"A live": rows(t, e, orgA, true), "A test": rows(t, e, orgA, false), "B live": rows(t, e, orgB, true), "B test": rows(t, e, orgB, false),
	}
	if n := before["A test"]; n["endpoints"] != 2 || n["secrets"] != 2 || n["messages"] != 2 || n["deliveries"] != 2 || n["attempts"] != 2 {
		t.Fatalf("test data before: %v", n)
	}
	path := "/internal/organizers/" + orgA + "/test-data"
	for _, refused := range []struct {
		token  string
		status int
		code   string
	}{
		{"", http.StatusUnauthorized, "unauthorized"},
		{e.TestSecret(t, orgA), http.StatusForbidden, "forbidden"},
		{e.Console(t, orgA), http.StatusForbidden, "forbidden"},
		{e.Registration(t, orgA, false), http.StatusForbidden, "test_key_required"},
		{e.Registration(t, orgB, true), http.StatusForbidden, "forbidden"},
	} {
		if r := e.Do(t, http.MethodDelete, path, nil, refused.token); r.Status != refused.status || r.Body["code"] != refused.code {
			t.Fatalf("refused wipe: %d %s, want %d %s", r.Status, r.Raw, refused.status, refused.code)
		}
	}
	if got := rows(t, e, orgA, false); got["endpoints"] != 2 || got["deliveries"] != 2 {
		t.Fatalf("refused wipes deleted test data: %v", got)
	}
	for i, want := range []map[string]any{{"webhookEndpoints": 2.0, "webhookDeliveries": 2.0}, {"webhookEndpoints": 0.0, "webhookDeliveries": 0.0}} {
		r := e.Do(t, http.MethodDelete, path, nil, e.Registration(t, orgA, true))
		if r.Status != http.StatusOK || r.Body["webhookEndpoints"] != want["webhookEndpoints"] || r.Body["webhookDeliveries"] != want["webhookDeliveries"] {
			t.Fatalf("wipe %d: %d %s, want %v", i+1, r.Status, r.Raw, want)
		}
	}
	after := map[string]map[string]int{
		"A live": rows(t, e, orgA, true), "A test": rows(t, e, orgA, false), "B live": rows(t, e, orgB, true), "B test": rows(t, e, orgB, false),
	}
	for name, counts := range after {
		for table, n := range counts {
			want := before[name][table]
			if name == "A test" {
				want = 0
			}
			if n != want {
				t.Errorf("%s %s: %d rows after the wipe, want %d (before: %d)", name, table, n, want, before[name][table])
			}
		}
	}
}

package testkit_test

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/podiumhq/podium/libs/testkit"
)

// TestStripeIdempotency: a key's first answer, a failure included, comes back to the key's
// later requests without reaching the double behind, marked as replayed; a 409 or 429 is not
// kept; requests without a key always reach it.
func TestStripeIdempotency(t *testing.T) {
	calls := 0
	status := http.StatusInternalServerError
	srv := httptest.NewServer(testkit.StripeIdempotency(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls++
		w.Header().Set("Request-Id", "req_"+strconv.Itoa(calls))
		w.WriteHeader(status)
		_, _ = w.Write([]byte(`{"call":` + strconv.Itoa(calls) + `}`))
	})))
	defer srv.Close()
	post := func(key string) testkit.Response {
		h := map[string]string{}
		if key != "" {
			h["Idempotency-Key"] = key
		}
		return testkit.Do(t, http.MethodPost, srv.URL+"/v1/refunds", nil, h)
	}

	first := post("k1")
	status = http.StatusOK
	again := post("k1")
	if first.Status != 500 || again.Status != 500 || again.Body["call"] != 1.0 || again.Header.Get("Request-Id") != "req_1" ||
		again.Header.Get("Idempotent-Replayed") != "true" || calls != 1 {
		t.Fatalf("a 500 replayed: %d %s, then %d %s (%v), %d calls", first.Status, first.Raw, again.Status, again.Raw, again.Header, calls)
	}
	if r := post("k2"); r.Status != 200 || r.Body["call"] != 2.0 || r.Header.Get("Idempotent-Replayed") != "" {
		t.Fatalf("another key: %d %s", r.Status, r.Raw)
	}
	status = http.StatusConflict
	if r := post("k3"); r.Status != 409 {
		t.Fatalf("a 409: %d", r.Status)
	}
	status = http.StatusOK
	if r := post("k3"); r.Status != 200 || r.Body["call"] != 4.0 {
		t.Fatalf("after a 409 not kept: %d %s", r.Status, r.Raw)
	}
	for range 2 {
		post("")
	}
	if calls != 6 {
		t.Fatalf("%d calls, want every request without a key to reach the double", calls)
	}
}

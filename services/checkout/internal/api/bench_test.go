package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/podiumhq/podium/services/checkout/internal/checkouttest"
)

// BenchmarkSessionCreate measures session creation over HTTP: catalog and registration
// doubles, real Postgres, stripe-mock (behind the counting proxy). Every iteration is a new
// purchase intent (a new idempotency key). Reports p50 and p99 in milliseconds.
func BenchmarkSessionCreate(b *testing.B) {
	env := start(b, checkouttest.Options{})
	body := checkouttest.Purchase()
	var lat []time.Duration
	i := 0
	for b.Loop() {
		i++
		body["idempotencyKey"] = fmt.Sprintf("bench-create-%08d", i)
		t0 := time.Now()
		r := session(b, env, body)
		lat = append(lat, time.Since(t0))
		if r.Status != http.StatusCreated {
			b.Fatalf("session: %d %s", r.Status, r.Raw)
		}
	}
	report(b, lat)
}

// BenchmarkSessionReplay measures the idempotent replay of a created session: one indexed
// read, no peer and no Stripe call. Reports p50 and p99 in milliseconds.
func BenchmarkSessionReplay(b *testing.B) { benchmarkReplay(b, checkouttest.Purchase()) }

// BenchmarkSessionReplayLongSignature replays a body of about 7 KB (a signature of three
// strokes of 60 points): the retry of the same bytes is recognised by their hash, without
// decoding them.
func BenchmarkSessionReplayLongSignature(b *testing.B) {
	body := checkouttest.Purchase()
	strokes := make([]any, 3)
	for s := range strokes {
		stroke := make([]any, 60)
		for i := range stroke {
			stroke[i] = map[string]any{"x": float64(i) / 60, "y": 0.3 + float64(s)/10, "t": i * 12}
		}
		strokes[s] = stroke
	}
	sig := checkouttest.Signature()
	sig["strokes"] = strokes
	body["legalSignature"] = sig
	benchmarkReplay(b, body)
}

func benchmarkReplay(b *testing.B, body map[string]any) {
	env := start(b, checkouttest.Options{})
	body["idempotencyKey"] = "bench-replay-0001"
	if r := session(b, env, body); r.Status != http.StatusCreated {
		b.Fatalf("session: %d %s", r.Status, r.Raw)
	}
	raw, _ := json.Marshal(body) // encoded once: the client's own work is not the server's latency
	var lat []time.Duration
	for b.Loop() {
		t0 := time.Now()
		r := env.Browser(b, "session", json.RawMessage(raw), checkouttest.KeyID)
		lat = append(lat, time.Since(t0))
		if r.Status != http.StatusCreated || r.Header.Get("Idempotent-Replayed") != "true" {
			b.Fatalf("replay: %d %s", r.Status, r.Raw)
		}
	}
	if n := env.Stripe.Hits(checkouttest.RouteSessions); n != 1 {
		b.Fatalf("%d Stripe calls", n)
	}
	report(b, lat)
}

func report(b *testing.B, lat []time.Duration) {
	if len(lat) == 0 {
		return
	}
	slices.Sort(lat)
	at := func(q float64) float64 {
		return float64(lat[min(len(lat)-1, int(q*float64(len(lat))))].Microseconds()) / 1000
	}
	b.ReportMetric(at(0.50), "p50-ms")
	b.ReportMetric(at(0.99), "p99-ms")
}

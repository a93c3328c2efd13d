package api_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/registration/internal/regtest"
)

// BenchmarkSearch100k measures a filtered search over HTTP on a real listener against real
// Postgres holding 100,000 tickets of one organizer: free text (a surname fragment, varied
// per request) plus two filters (eventId, gender) and a sort (athlete-asc), 20 rows and the
// total. It reports the p50 and p99 latency of sequential requests.
//
// Variants: "short-text" sends two-letter fragments (no trigram to use: the text filter
// scans the event's tickets), "filters-only" sends no text (eventId, gender, default sort).
func BenchmarkSearch100k(b *testing.B) {
	env := regtest.Start(b, regtest.Options{MaxConns: 8})
	regtest.Seed(b, env.Pool, orgA, 100_000)
	for _, v := range []struct {
		name string
		body func(i int) map[string]any
	}{
		{"surname+event+gender+sort", func(i int) map[string]any {
			last := []rune(regtest.LastNames[i%len(regtest.LastNames)])
			return map[string]any{"search": strings.ToLower(string(last[:min(len(last), 4+i%3)])),
				"eventId": fmt.Sprintf("evt_s%d", i%5), "gender": []string{"MALE", "FEMALE"}[i%2], "sortBy": "athlete-asc"}
		}},
		{"short-text", func(i int) map[string]any {
			last := []rune(regtest.LastNames[i%len(regtest.LastNames)])
			return map[string]any{"search": strings.ToLower(string(last[:2])),
				"eventId": fmt.Sprintf("evt_s%d", i%5), "gender": []string{"MALE", "FEMALE"}[i%2], "sortBy": "athlete-asc"}
		}},
		{"filters-only", func(i int) map[string]any {
			return map[string]any{"eventId": fmt.Sprintf("evt_s%d", i%5), "gender": []string{"MALE", "FEMALE"}[i%2]}
		}},
	} {
		b.Run(v.name, func(b *testing.B) { benchSearch(b, env, v.body) })
	}
	b.Run("surname+event+gender+sort/8-concurrent", func(b *testing.B) { benchSearchParallel(b, env) })
}

// benchSearchParallel runs the main query from 8 concurrent clients and reports its p50, p99
// and throughput.
func benchSearchParallel(b *testing.B, env *regtest.Env) {
	var mu sync.Mutex
	var lat []time.Duration
	var n atomic.Int64
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
	b.SetParallelism(4) // 4 x GOMAXPROCS (2)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			i := int(n.Add(1))
			last := []rune(regtest.LastNames[i%len(regtest.LastNames)])
			body, _ := json.Marshal(map[string]any{"search": strings.ToLower(string(last[:min(len(last), 4+i%3)])),
				"eventId": fmt.Sprintf("evt_s%d", i%5), "gender": []string{"MALE", "FEMALE"}[i%2], "sortBy": "athlete-asc"})
			start := time.Now()
			req, _ := http.NewRequestWithContext(b.Context(), "POST", env.URL+"/external/v1/organizer/registrations/search", bytes.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set(identity.Header, env.Secret(b, orgA))
			resp, err := client.Do(req)
			if err != nil {
				b.Error(err)
				return
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			d := time.Since(start)
			mu.Lock()
			lat = append(lat, d)
			mu.Unlock()
		}
	})
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "searches/s")
}

func benchSearch(b *testing.B, env *regtest.Env, mk func(int) map[string]any) {
	client := &http.Client{}
	i := 0
	one := func() time.Duration {
		body, _ := json.Marshal(mk(i))
		i++
		start := time.Now()
		req, _ := http.NewRequestWithContext(b.Context(), "POST", env.URL+"/external/v1/organizer/registrations/search", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set(identity.Header, env.Secret(b, orgA)) // the signer reuses a token for half its lifetime
		resp, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		raw, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 201 || !bytes.Contains(raw, []byte(`"total":`)) {
			b.Fatalf("search: %d %s", resp.StatusCode, raw)
		}
		return time.Since(start)
	}
	for range 200 { // warm the caches and the connections
		one()
	}
	var lat []time.Duration
	b.ResetTimer()
	for b.Loop() {
		lat = append(lat, one())
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
}

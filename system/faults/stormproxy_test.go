package faults

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
)

// stormProxy is an HTTP fault proxy in front of checkout that answers 500 to the first delivery
// of each Stripe event it is told to fail: for half of them before checkout sees it (the
// delivery is lost on the way), for the other half after checkout applied it (the answer is
// lost on the way back). Stripe delivers both again.
type stormProxy struct {
	srv        *httptest.Server
	mu         sync.Mutex
	fail       map[string]bool
	seen       map[string]bool
	before     atomic.Int64
	afterApply atomic.Int64
}

// startStormProxy starts the proxy in front of checkout's front, failing the first delivery
// of each event id in fail.
func startStormProxy(t *testing.T, fail []string) *stormProxy {
	target, err := url.Parse(sys.URLs["checkout"])
	if err != nil {
		t.Fatal(err)
	}
	p := &stormProxy{fail: map[string]bool{}, seen: map[string]bool{}}
	for _, id := range fail {
		p.fail[id] = true
	}
	rp := httputil.NewSingleHostReverseProxy(target)
	p.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		if !p.firstOfFailing(r, body) {
			rp.ServeHTTP(w, r)
			return
		}
		if p.before.Load() <= p.afterApply.Load() {
			p.before.Add(1)
		} else {
			p.afterApply.Add(1)
			rp.ServeHTTP(httptest.NewRecorder(), r) // checkout applies it; its answer is lost
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = w.Write([]byte(`{"statusCode":500,"message":"injected fault","error":"Internal Server Error","requestId":"req_fault"}`))
	}))
	t.Cleanup(p.srv.Close)
	return p
}

// firstOfFailing reports whether r is the first delivery of an event the proxy fails.
func (p *stormProxy) firstOfFailing(r *http.Request, body []byte) bool {
	if r.URL.Path != "/webhooks/stripe" {
		return false
	}
	var ev struct {
		ID string `json:"id"`
	}
	if json.Unmarshal(body, &ev) != nil || !p.fail[ev.ID] {
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	first := !p.seen[ev.ID]
	p.seen[ev.ID] = true
	return first
}

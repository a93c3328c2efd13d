package faults

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// client is the load's HTTP client: enough connections for every worker, no automatic retry
// beyond net/http's own of a request on a reused connection the server had closed.
var client = &http.Client{
	Timeout:   30 * time.Second,
	Transport: &http.Transport{MaxIdleConnsPerHost: 64, IdleConnTimeout: 30 * time.Second},
}

// request is one call through a gateway: path is appended to the gateway's base URL.
type request struct {
	method, path string
	headers      map[string]string
	body         []byte
}

// answer is one HTTP answer, or the connection-level failure that stood for it.
type answer struct {
	status int
	header http.Header
	body   []byte
	err    error
}

func (a answer) String() string {
	if a.err != nil {
		return "no answer: " + a.err.Error()
	}
	return fmt.Sprintf("%d %.300s", a.status, a.body)
}

// retryAfter is the answer's Retry-After, or 0 when it has none.
func (a answer) retryAfter() time.Duration {
	n, err := strconv.Atoi(a.header.Get("Retry-After"))
	if err != nil || n < 0 {
		return 0
	}
	return time.Duration(n) * time.Second
}

// retryable reports whether a client may send the request again: no answer at all (the
// connection was refused or cut: the session carries its idempotencyKey, a webhook is
// delivered again as Stripe does, a read has no effect), or an answer telling when to retry
// (503 Service Unavailable, 429, and 409 for a session still being processed, each with
// Retry-After).
func (a answer) retryable() bool {
	if a.err != nil {
		return true
	}
	switch a.status {
	case http.StatusServiceUnavailable, http.StatusTooManyRequests, http.StatusConflict:
		return a.retryAfter() > 0
	}
	return false
}

// tally counts what the clients saw: every 5xx answer, the retries, and the failures a client
// may not retry (with the first few for the report).
type tally struct {
	fiveXX, retries, failed atomic.Int64
	mu                      sync.Mutex
	failures                []string
}

func (t *tally) fail(what string, a answer) {
	t.failed.Add(1)
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.failures) < 5 {
		t.failures = append(t.failures, what+": "+a.String())
	}
}

// gateways spreads requests over the gateway instances (or over urls, when set); a client that
// gets no answer from one turns to the next.
type gateways struct {
	next atomic.Uint64
	urls []string
}

func (g *gateways) pick() string {
	urls := g.urls
	if urls == nil {
		urls = sys.GatewayURLs
	}
	return urls[int(g.next.Add(1))%len(urls)]
}

// send makes one attempt of r through a gateway.
func send(ctx context.Context, base string, r request) answer {
	req, err := http.NewRequestWithContext(ctx, r.method, base+r.path, bytes.NewReader(r.body))
	if err != nil {
		return answer{err: err}
	}
	if r.body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range r.headers {
		req.Header.Set(k, v)
	}
	res, err := client.Do(req)
	if err != nil {
		return answer{err: err}
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	return answer{status: res.StatusCode, header: res.Header, body: body, err: err}
}

// redeliverable reports whether Stripe delivers a webhook again after this answer: after any
// answer but a 2xx or 4xx (a refused signature is not delivered again either).
func redeliverable(a answer) bool { return a.err != nil || a.status >= 500 }

// retrying sends r until it gets an answer that again says no more (answer.retryable for a
// client, redeliverable for Stripe) or ctx ends, waiting what Retry-After says (a tenth of a
// second without one, on the next gateway), and counts the 5xx answers and the retries in t.
func (g *gateways) retrying(ctx context.Context, t *tally, r request, again func(answer) bool) answer {
	for {
		a := send(ctx, g.pick(), r)
		if a.status >= 500 {
			t.fiveXX.Add(1)
		}
		if !again(a) || ctx.Err() != nil {
			return a
		}
		t.retries.Add(1)
		wait := max(a.retryAfter(), 100*time.Millisecond)
		select {
		case <-ctx.Done():
			return a
		case <-time.After(wait):
		}
	}
}

// decode unmarshals an answer's body into v.
func decode(a answer, v any) error {
	if a.err != nil {
		return a.err
	}
	return json.Unmarshal(a.body, v)
}

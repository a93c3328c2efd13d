package delivery_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/webhooks/internal/delivery"
	"github.com/podiumhq/podium/services/webhooks/internal/delivery/deliverytest"
)

// rig runs a dispatcher on a database of the test's own, with loopback receivers allowed, on
// a clock the test moves. It scans once an hour only: it claims when the test wakes it and
// when attempts end.
type rig struct {
	t     *testing.T
	db    *deliverytest.DB
	clock *testkit.Clock
	// now is the clock's time when the rig was made.
	now  time.Time
	wake chan struct{}
	d    *delivery.Dispatcher
}

func newRig(t *testing.T, workers, perEndpoint int) *rig {
	t.Helper()
	r := &rig{t: t, db: deliverytest.NewDB(t), clock: &testkit.Clock{}, wake: make(chan struct{})}
	r.now = time.Now().UTC().Truncate(time.Second)
	r.clock.Set(r.now)
	r.d = &delivery.Dispatcher{
		Store: r.db.Store(), Client: delivery.NewClient(delivery.ClientOptions{AllowLoopbackReceivers: true}),
		Clock: r.clock.Now, Workers: workers, PerEndpoint: perEndpoint, Wake: r.wake, Scan: time.Hour,
		Log: testkit.Logger(t), Random: middle,
	}
	return r
}

// start runs the dispatcher until the test ends.
func (r *rig) start() {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- r.d.Run(ctx) }()
	r.t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			r.t.Errorf("Run: %v", err)
		}
	})
}

// poke wakes the dispatcher; it returns once the dispatcher took the wake-up (the wake
// channel is unbuffered), so two pokes in a row return after the first one's claim.
func (r *rig) poke() { r.wake <- struct{}{} }

// waitFor waits until delivery has the status and attempts wanted.
func (r *rig) waitFor(delivery, status string, attempts int) deliverytest.Delivery {
	r.t.Helper()
	var got deliverytest.Delivery
	testkit.Eventually(r.t, 10*time.Second, func() string {
		got = r.db.Get(delivery)
		if got.Status == status && got.Attempts == attempts {
			return ""
		}
		return "delivery " + delivery + " is " + got.Status + " after " + strconv.Itoa(got.Attempts) + " attempts, want " + status + " after " + strconv.Itoa(attempts)
	})
	return got
}

// hook is a receiver that keeps the requests it gets and answers each with respond (the
// requests counted from 1).
type hook struct {
	mu      sync.Mutex
	got     []request
	respond func(n int, w http.ResponseWriter)
	srv     *httptest.Server
}

type request struct {
	header http.Header
	body   []byte
}

func newHook(t *testing.T, respond func(n int, w http.ResponseWriter)) *hook {
	h := &hook{respond: respond}
	h.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		h.mu.Lock()
		h.got = append(h.got, request{header: req.Header.Clone(), body: body})
		n := len(h.got)
		h.mu.Unlock()
		if h.respond != nil {
			h.respond(n, w)
		}
	}))
	t.Cleanup(h.srv.Close)
	return h
}

func (h *hook) url() string { return h.srv.URL + "/hook" }

func (h *hook) requests() []request {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]request(nil), h.got...)
}

// status answers every request with code.
func status(code int) func(int, http.ResponseWriter) {
	return func(_ int, w http.ResponseWriter) { w.WriteHeader(code) }
}

// verifyRequest checks a request as a receiver holding secret does, with the reference
// library, and that it was signed at the time wanted.
func verifyRequest(t *testing.T, secret delivery.Secret, req request, at time.Time) {
	t.Helper()
	wh, err := standardwebhooks.NewWebhook(secret.String())
	if err != nil {
		t.Fatal(err)
	}
	if err := wh.VerifyIgnoringTimestamp(req.body, req.header); err != nil {
		t.Fatalf("reference library: %v", err)
	}
	if got := req.header.Get("webhook-timestamp"); got != strconv.FormatInt(at.Unix(), 10) {
		t.Fatalf("webhook-timestamp %s, want %d", got, at.Unix())
	}
}

func countFailed(t *testing.T, reason string) int64 {
	return deliverytest.Count(t, "webhooks.deliveries.failed", "reason", reason)
}

func gauge(t *testing.T, name string) int64 { return deliverytest.Gauge(t, name) }

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

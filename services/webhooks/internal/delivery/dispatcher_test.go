package delivery_test

import (
	"net/http"
	"strconv"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/podiumhq/podium/services/webhooks/internal/delivery"
	"github.com/podiumhq/podium/services/webhooks/internal/delivery/deliverytest"
)

const body = `{"type":"order.completed","timestamp":"2026-05-09T18:03:21.447Z","data":{"objectId":"ord_1","sequence":3,"livemode":true,"object":{"orderId":"ord_1"}}}`

func TestADeliveryArrivesSignedAndIsRecorded(t *testing.T) {
	r := newRig(t, 0, 0)
	h := newHook(t, func(_ int, w http.ResponseWriter) { _, _ = w.Write([]byte("thanks")) })
	current, rotated := delivery.NewSecret(), delivery.NewSecret()
	e := r.db.Endpoint(h.url(), r.now, current, rotated)
	msg := r.db.Message(body, r.now)
	d := r.db.Delivery(e, msg, r.now)
	succeeded := deliverytest.Count(t, "webhooks.deliveries.succeeded", "", "")
	attempts := deliverytest.Count(t, "webhooks.delivery.attempts", "kind", "success")
	durations := deliverytest.Observations(t, "webhooks.delivery.attempt.duration")
	r.start()
	r.poke()

	got := r.waitFor(d, "succeeded", 1)
	if *got.LastStatusCode != 200 || got.LastError != nil || !got.FinishedAt.Equal(r.now) || !got.FirstAttemptAt.Equal(r.now) ||
		got.NextAttemptAt != nil || got.LeasedUntil != nil {
		t.Fatalf("delivery %+v", got)
	}
	reqs := h.requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	req := reqs[0]
	if string(req.body) != body || req.header.Get("webhook-id") != msg || req.header.Get("Content-Type") != "application/json" ||
		req.header.Get("User-Agent") != "Podium-Webhooks/1" {
		t.Fatalf("request %v %s", req.header, req.body)
	}
	for _, s := range []delivery.Secret{current, rotated} {
		wh, _ := standardwebhooks.NewWebhook(s.String())
		if err := wh.Verify(req.body, req.header); err != nil {
			t.Fatalf("reference library: %v", err)
		}
	}
	if as := r.db.Attempts(d); len(as) != 1 || *as[0].StatusCode != 200 || as[0].Excerpt != "thanks" || !as[0].StartedAt.Equal(r.now) {
		t.Fatalf("attempts %+v", as)
	}
	if n := deliverytest.Count(t, "webhooks.deliveries.succeeded", "", ""); n != succeeded+1 {
		t.Fatalf("succeeded counter moved by %d, want 1", n-succeeded)
	}
	if n := deliverytest.Count(t, "webhooks.delivery.attempts", "kind", "success"); n != attempts+1 {
		t.Fatalf("attempts counter moved by %d, want 1", n-attempts)
	}
	if n := deliverytest.Observations(t, "webhooks.delivery.attempt.duration"); n != durations+1 {
		t.Fatalf("latency histogram moved by %d, want 1", n-durations)
	}
}

func TestAFailedAttemptIsRetriedAtItsTimeWithTheSameID(t *testing.T) {
	r := newRig(t, 0, 0)
	h := newHook(t, func(n int, w http.ResponseWriter) {
		if n == 1 {
			w.WriteHeader(http.StatusInternalServerError)
		}
	})
	secret := delivery.NewSecret()
	e := r.db.Endpoint(h.url(), r.now, secret)
	msg := r.db.Message(body, r.now)
	d := r.db.Delivery(e, msg, r.now)
	r.start()

	got := r.waitFor(d, "pending", 1)
	if *got.LastStatusCode != 500 || *got.LastError != "the endpoint answered 500" || !got.NextAttemptAt.Equal(r.now.Add(5*time.Second)) {
		t.Fatalf("after the 500: %+v", got)
	}
	if ep := r.db.GetEndpoint(e); ep.FailingSince == nil || !ep.FailingSince.Equal(r.now) {
		t.Fatalf("endpoint %+v, want failing since the attempt", ep)
	}

	r.clock.Advance(4 * time.Second)
	r.poke()
	r.poke() // returns once the claim at +4 s is done
	if n := len(h.requests()); n != 1 {
		t.Fatalf("%d requests 4 s after the first, want none more before 5 s", n)
	}
	r.clock.Advance(time.Second)
	r.poke()
	r.waitFor(d, "succeeded", 2)

	reqs := h.requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	for i, at := range []time.Time{r.now, r.now.Add(5 * time.Second)} {
		if id := reqs[i].header.Get("webhook-id"); id != msg {
			t.Fatalf("attempt %d has webhook-id %s, want %s", i+1, id, msg)
		}
		verifyRequest(t, secret, reqs[i], at)
	}
	if ep := r.db.GetEndpoint(e); ep.FailingSince != nil {
		t.Fatalf("endpoint still failing since %v after a success", ep.FailingSince)
	}
}

func TestGoneDisablesTheEndpointAndFailsItsPendingDeliveries(t *testing.T) {
	r := newRig(t, 0, 0)
	gone, fine := newHook(t, status(http.StatusGone)), newHook(t, nil)
	e := r.db.Endpoint(gone.url(), r.now, delivery.NewSecret())
	other := r.db.Endpoint(fine.url(), r.now, delivery.NewSecret())
	d := r.db.Delivery(e, r.db.Message(body, r.now), r.now)
	later := r.db.Delivery(e, r.db.Message(body, r.now), r.now.Add(time.Hour))
	untouched := r.db.Delivery(other, r.db.Message(body, r.now), r.now.Add(time.Hour))
	failed := deliverytest.Count(t, "webhooks.deliveries.failed", "reason", "gone")
	r.start()

	got := r.waitFor(d, "failed", 1)
	if *got.LastStatusCode != 410 || *got.LastError != "the endpoint answered 410 Gone" || got.NextAttemptAt != nil {
		t.Fatalf("delivery %+v", got)
	}
	if ep := r.db.GetEndpoint(e); ep.Status != "disabled" || *ep.DisabledReason != "gone" || !ep.DisabledAt.Equal(r.now) {
		t.Fatalf("endpoint %+v, want disabled as gone", ep)
	}
	if got := r.db.Get(later); got.Status != "failed" || *got.LastError != "endpoint disabled" || got.Attempts != 0 {
		t.Fatalf("its pending delivery: %+v", got)
	}
	if got := r.db.Get(untouched); got.Status != "pending" {
		t.Fatalf("another endpoint's delivery: %+v", got)
	}
	if n := deliverytest.Count(t, "webhooks.deliveries.failed", "reason", "gone"); n != failed+1 {
		t.Fatalf("failed{reason=gone} moved by %d, want 1", n-failed)
	}
}

func TestRetryAfterSetsTheNextAttempt(t *testing.T) {
	r := newRig(t, 0, 0)
	secondRetry := r.now.Add(32 * time.Minute)
	h := newHook(t, func(n int, w http.ResponseWriter) {
		switch n {
		case 1:
			w.Header().Set("Retry-After", "120")
			w.WriteHeader(http.StatusTooManyRequests)
		case 2:
			w.Header().Set("Retry-After", secondRetry.Format(http.TimeFormat))
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	})
	e := r.db.Endpoint(h.url(), r.now, delivery.NewSecret())
	d := r.db.Delivery(e, r.db.Message(body, r.now), r.now)
	r.start()

	got := r.waitFor(d, "pending", 1)
	if *got.LastStatusCode != 429 || !got.NextAttemptAt.Equal(r.now.Add(2*time.Minute)) {
		t.Fatalf("after 429 with Retry-After 120: %+v, want the next attempt 2 min later", got)
	}
	r.clock.Advance(2 * time.Minute)
	r.poke()
	got = r.waitFor(d, "pending", 2)
	if *got.LastStatusCode != 503 || !got.NextAttemptAt.Equal(secondRetry) {
		t.Fatalf("after 503 with Retry-After %s: next attempt at %s", secondRetry, got.NextAttemptAt)
	}
	r.clock.Set(secondRetry)
	r.poke()
	r.waitFor(d, "succeeded", 3)
	if ts := h.requests()[2].header.Get("webhook-timestamp"); ts != strconv.FormatInt(secondRetry.Unix(), 10) {
		t.Fatalf("third attempt signed at %s, want at the Retry-After time", ts)
	}
}

package bench

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

// releases runs schedule at 1,000 requests per second for 10 ms from the bubble's start, with
// sleep as its timer and take as the workers, and returns each request's release time as an
// offset from the start.
func releases(t *testing.T, sleep func(time.Duration), take func(<-chan time.Time) []time.Time) []time.Duration {
	t.Helper()
	start := time.Now()
	jobs := make(chan time.Time)
	go schedule(context.Background(), jobs, Options{Rate: 1000, Duration: 10 * time.Millisecond}, start, sleep)
	var offsets []time.Duration
	for _, r := range take(jobs) {
		offsets = append(offsets, r.Sub(start))
	}
	if len(offsets) != 10 {
		t.Fatalf("released %d requests, want 10", len(offsets))
	}
	return offsets
}

// takeAll takes every release at once.
func takeAll(jobs <-chan time.Time) []time.Time {
	var got []time.Time
	for r := range jobs {
		got = append(got, r)
	}
	return got
}

func TestARequestIsReleasedAtItsSlot(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		got := releases(t, time.Sleep, takeAll)
		for i, off := range got {
			if want := time.Duration(i) * time.Millisecond; off != want {
				t.Errorf("request %d released at %v, want its slot %v", i, off, want)
			}
		}
	})
}

// The generator's own timer waking late is not the system's latency: the slots that passed
// meanwhile are released at the wake-up.
func TestSlotsPassedWhileTheScheduleOversleptAreReleasedAtTheWakeUp(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		late := true
		oversleep := func(d time.Duration) {
			if late { // the first sleep (for slot 1) wakes 3.5 ms late, at 4.5 ms
				d += 3500 * time.Microsecond
				late = false
			}
			time.Sleep(d)
		}
		got := releases(t, oversleep, takeAll)
		want := []time.Duration{0, 4500, 4500, 4500, 4500, 5000, 6000, 7000, 8000, 9000}
		for i, off := range got {
			if off != want[i]*time.Microsecond {
				t.Errorf("request %d released at %v, want %v", i, off, want[i]*time.Microsecond)
			}
		}
	})
}

// Slots that pass while every worker is busy keep their times, so the wait counts as latency
// (no coordinated omission).
func TestSlotsMissedWhileTheWorkersWereBusyKeepTheirTimes(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		busy := func(jobs <-chan time.Time) []time.Time {
			got := []time.Time{<-jobs}
			time.Sleep(5500 * time.Microsecond) // the only worker is busy until 5.5 ms
			for r := range jobs {
				got = append(got, r)
			}
			return got
		}
		got := releases(t, time.Sleep, busy)
		for i, off := range got {
			if want := time.Duration(i) * time.Millisecond; off != want {
				t.Errorf("request %d released at %v, want its slot %v", i, off, want)
			}
		}
	})
}

// TestRunCountsWhatItsCountersGrewByDuringTheRun: counters read before and after a run give
// the run what they grew by, here the requests a server answered, which are the run's own.
func TestRunCountsWhatItsCountersGrewByDuringTheRun(t *testing.T) {
	var served atomic.Int64
	served.Store(40) // answered before the run
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		served.Add(1)
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	counters := func() (map[string]float64, error) { return map[string]float64{"served": float64(served.Load())}, nil }
	res, err := Run(t.Context(), Target{Name: "counted", Method: "GET", URL: srv.URL, Status: http.StatusNoContent},
		Options{Workers: 2, Duration: 20 * time.Millisecond, Counters: counters})
	if err != nil {
		t.Fatal(err)
	}
	if res.Requests == 0 || res.Counters["served"] != float64(res.Requests) {
		t.Fatalf("the counter grew by %v during a run of %d requests; want as many", res.Counters["served"], res.Requests)
	}
}

// TestAClosedLoopKeepsAtMostItsWorkersInFlight: a closed loop of 3 clients never has a fourth
// request waiting at the server.
func TestAClosedLoopKeepsAtMostItsWorkersInFlight(t *testing.T) {
	var inFlight, most atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		n := inFlight.Add(1)
		defer inFlight.Add(-1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		w.WriteHeader(http.StatusOK)
	}))
	defer srv.Close()
	res, err := Run(t.Context(), Target{Name: "closed", Method: "GET", URL: srv.URL, Status: http.StatusOK},
		Options{Workers: 3, Duration: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if res.Requests == 0 || most.Load() > 3 {
		t.Fatalf("%d requests, at most %d in flight; want some, at most 3", res.Requests, most.Load())
	}
}

// TestRunSortsAnswersIntoServedRefusedAndFailed: each request has its own body, whose first
// word tells the server how to answer; a refusal needs Retry-After, and any failure fails a
// run that expects no refusals.
func TestRunSortsAnswersIntoServedRefusedAndFailed(t *testing.T) {
	answers := map[string]struct {
		status     int
		retryAfter bool
	}{"ok": {201, false}, "limit": {429, true}, "shed": {503, true}, "down": {503, false}}
	var mu sync.Mutex
	bodies, kinds := map[string]bool{}, map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		kind, _, _ := strings.Cut(string(body), " ")
		mu.Lock()
		bodies[string(body)] = true
		kinds[kind]++
		mu.Unlock()
		if answers[kind].retryAfter {
			w.Header().Set("Retry-After", "1")
		}
		w.WriteHeader(answers[kind].status)
	}))
	defer srv.Close()
	order := []string{"ok", "limit", "ok", "shed", "down"}
	var n atomic.Uint64
	target := Target{Name: "sorted", Method: "POST", URL: srv.URL, Status: http.StatusCreated, Refusals: true,
		NextBody: func() []byte { i := n.Add(1); return fmt.Appendf(nil, "%s %d", order[i%uint64(len(order))], i) }}
	res, err := Run(t.Context(), target, Options{Workers: 2, Duration: 30 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if sent := res.Requests + res.Refused + res.Failed; sent == 0 || len(bodies) != sent {
		t.Errorf("%d distinct bodies for %d requests; want one each", len(bodies), sent)
	}
	if res.Requests != kinds["ok"] || res.Refused != kinds["limit"]+kinds["shed"] || res.Failed != kinds["down"] {
		t.Errorf("served %d, refused %d, failed %d; the server answered %v", res.Requests, res.Refused, res.Failed, kinds)
	}
	if res.Latency.TotalCount() != int64(res.Requests) || res.RefusedLatency.TotalCount() != int64(res.Refused) {
		t.Errorf("%d and %d latencies for %d served and %d refused", res.Latency.TotalCount(), res.RefusedLatency.TotalCount(), res.Requests, res.Refused)
	}
	target.Refusals = false
	if _, err := Run(t.Context(), target, Options{Workers: 2, Duration: 10 * time.Millisecond}); err == nil || !strings.Contains(err.Error(), "failed") {
		t.Errorf("a run expecting only 201 got refusals: error %v, want the failures", err)
	}
}

// TestARushSendsItsAttemptsAndCountsPlacesAndRefusals: the rush stops after its attempts, and
// counts creates answered 201 as places and 409 as refusals.
func TestARushSendsItsAttemptsAndCountsPlacesAndRefusals(t *testing.T) {
	const places, attempts = 7, 30
	var served atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer key" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		if served.Add(1) <= places {
			w.WriteHeader(http.StatusCreated)
			return
		}
		w.WriteHeader(http.StatusConflict)
	}))
	defer srv.Close()
	var n atomic.Uint64
	r := rush{url: srv.URL, key: "key", workers: 4, attempts: attempts,
		bodies: creates{eventID: "evt", n: &n, category: func(uint64) string { return "cat" }}}
	made, refused, err := r.run(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if made != places || refused != attempts-places || served.Load() != attempts {
		t.Fatalf("made %d, refused %d, server saw %d; want %d, %d of %d", made, refused, served.Load(), places, attempts-places, attempts)
	}
}

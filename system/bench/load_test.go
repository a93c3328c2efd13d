package bench

import (
	"context"
	"net/http"
	"net/http/httptest"
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

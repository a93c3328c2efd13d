package admission

import (
	"math"
	"runtime"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestMedianWait: the median is found among the waits counted since the last look, not among
// all of them, and is the lower bound of its bucket.
func TestMedianWait(t *testing.T) {
	buckets := []float64{math.Inf(-1), 0, 0.001, 0.002, 0.004, math.Inf(1)}
	for _, tc := range []struct {
		name        string
		now, before []uint64
		median      float64
		n           uint64
	}{
		{"no look before", []uint64{0, 9, 1, 0, 0}, nil, 0, 10},
		{"none since", []uint64{0, 9, 1, 0, 0}, []uint64{0, 9, 1, 0, 0}, 0, 0},
		{"slow since, fast before", []uint64{0, 100, 0, 6, 5}, []uint64{0, 100, 0, 0, 0}, 0.002, 11},
		{"under half slow", []uint64{0, 6, 0, 0, 5}, nil, 0, 11},
		{"past half slow", []uint64{0, 4, 0, 0, 5}, nil, 0.004, 9},
	} {
		t.Run(tc.name, func(t *testing.T) {
			median, n := medianWait(buckets, tc.now, tc.before)
			if median != tc.median || n != tc.n {
				t.Fatalf("medianWait = %v over %d, want %v over %d", median, n, tc.median, tc.n)
			}
		})
	}
}

// TestTheSchedulerLatenciesAreReadable: the runtime still offers the histogram schedWait reads
// (were it renamed, the instance would never count itself short of CPU).
func TestTheSchedulerLatenciesAreReadable(t *testing.T) {
	sample := []metrics.Sample{{Name: schedLatencies}}
	metrics.Read(sample)
	if kind := sample[0].Value.Kind(); kind != metrics.KindFloat64Histogram {
		t.Fatalf("%s reads as kind %v, want a float64 histogram", schedLatencies, kind)
	}
	s := newSchedWait()
	if len(s.before) == 0 {
		t.Fatal("schedWait kept no counts from its first look")
	}
}

// TestAnInstanceShortOfCPUIsSeenStarved: with one core for the process, kept busy by spinning
// goroutines, the goroutines woken meanwhile wait for it, and a controller's default judge
// (the scheduler's latencies) soon says the instance is short of CPU.
func TestAnInstanceShortOfCPUIsSeenStarved(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	c := New([]string{"catalog"}, Options{InitialLimit: 1, MaxLimit: 1})
	stop := make(chan struct{})
	var stopped atomic.Bool
	var wg sync.WaitGroup
	defer func() {
		stopped.Store(true)
		close(stop)
		wg.Wait()
	}()
	for range 4 {
		wg.Go(func() {
			for !stopped.Load() { // spins: it keeps the core busy
			}
		})
	}
	for range 256 {
		wg.Go(func() {
			tick := time.NewTicker(time.Millisecond)
			defer tick.Stop()
			for {
				select {
				case <-stop:
					return
				case <-tick.C:
				}
			}
		})
	}
	calibrations := time.NewTicker(calibrateEvery)
	defer calibrations.Stop()
	for range 200 {
		<-calibrations.C
		if c.starved() {
			return
		}
	}
	t.Fatal("200 calibrations with the process's one core kept busy, and the instance never judged short of CPU")
}

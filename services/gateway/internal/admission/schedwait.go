package admission

import (
	"runtime/metrics"
	"time"
)

// Thresholds of schedWait: this instance is short of CPU when half the goroutines that became
// runnable since the last look waited about starvedWait or more to run (the histogram's bucket
// holding their median starts at starvedWait or past it; its buckets are about 14% apart), over
// at least minWaits of them. A gateway with CPU to spare runs a ready goroutine within
// microseconds.
const (
	starvedWait = 2 * time.Millisecond
	minWaits    = 10
)

// schedLatencies is the Go scheduler's histogram of the time goroutines spent runnable before
// they ran (sampled by the runtime).
const schedLatencies = "/sched/latencies:seconds"

// schedWait tells whether this instance is short of CPU from how long its goroutines waited to
// run since the last look. It is not safe for concurrent use.
type schedWait struct {
	sample []metrics.Sample
	before []uint64
}

func newSchedWait() *schedWait {
	s := &schedWait{sample: []metrics.Sample{{Name: schedLatencies}}}
	s.starved()
	return s
}

// starved reports whether the median wait since the last call reached about starvedWait.
func (s *schedWait) starved() bool {
	metrics.Read(s.sample)
	if s.sample[0].Value.Kind() != metrics.KindFloat64Histogram {
		return false
	}
	h := s.sample[0].Value.Float64Histogram()
	median, n := medianWait(h.Buckets, h.Counts, s.before)
	s.before = append(s.before[:0], h.Counts...)
	return n >= minWaits && median >= starvedWait.Seconds()
}

// medianWait is the lower bound, in seconds, of the bucket holding the median of the waits
// counted in now and not in before (cumulative counts of the same buckets; before empty: none),
// and how many waits there were.
func medianWait(buckets []float64, now, before []uint64) (float64, uint64) {
	var n uint64
	for i, c := range now {
		if i < len(before) {
			c -= before[i]
		}
		n += c
	}
	var seen uint64
	for i, c := range now {
		if i < len(before) {
			c -= before[i]
		}
		if seen += c; 2*seen > n {
			return buckets[i], n
		}
	}
	return 0, n
}

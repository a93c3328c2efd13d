package bench

import (
	"context"
	"fmt"
	"maps"
	"math"
	"net/http"
	"slices"
	"strconv"

	dto "github.com/prometheus/client_model/go"
)

// durationMetric is the gateway's http.server.request.duration histogram as /metrics names it.
const durationMetric = "http_server_request_duration_seconds"

// refusalTimes are the gateway's own times for its refusals (answers 429 and 503), from the
// start of its handler to the answer: its http.server.request.duration histogram, every route
// together. Unlike the generator's latencies, they leave out the time a request and its answer
// wait for a CPU in the kernel and in the generator.
type refusalTimes struct {
	count uint64
	// le holds the histogram's cumulative counts by upper bound in seconds.
	le map[float64]uint64
}

// scrapeRefusalTimes reads the refusal times the gateway at base has recorded since it
// started, by status, every route together.
func scrapeRefusalTimes(ctx context.Context, base string) (map[int]refusalTimes, error) {
	families, err := scrapeMetrics(ctx, base)
	if err != nil {
		return nil, err
	}
	family, ok := families[durationMetric]
	if !ok {
		return nil, fmt.Errorf("bench: gateway metrics: no %s", durationMetric)
	}
	byStatus := map[int]refusalTimes{}
	for _, status := range refusalStatuses {
		byStatus[status] = refusalTimes{le: map[float64]uint64{}}
	}
	for _, m := range family.GetMetric() {
		t, ok := byStatus[statusOf(m)]
		if !ok {
			continue
		}
		h := m.GetHistogram()
		t.count += h.GetSampleCount()
		for _, b := range h.GetBucket() {
			t.le[b.GetUpperBound()] += b.GetCumulativeCount()
		}
		byStatus[statusOf(m)] = t
	}
	return byStatus, nil
}

// refusalStatuses are the answers that refuse: rate limited, and shed or unavailable.
var refusalStatuses = []int{http.StatusTooManyRequests, http.StatusServiceUnavailable}

// statusOf is the status code label of a series, 0 when it has none.
func statusOf(m *dto.Metric) int {
	for _, l := range m.GetLabel() {
		if l.GetName() == "http_response_status_code" {
			status, _ := strconv.Atoi(l.GetValue())
			return status
		}
	}
	return 0
}

// since is what t recorded after earlier.
func (t refusalTimes) since(earlier refusalTimes) refusalTimes {
	d := refusalTimes{count: t.count - earlier.count, le: map[float64]uint64{}}
	for bound, n := range t.le {
		d.le[bound] = n - earlier.le[bound]
	}
	return d
}

// within is the share of the refusals answered within bound seconds, a bucket's upper bound.
func (t refusalTimes) within(bound float64) float64 {
	if t.count == 0 {
		return 0
	}
	return float64(t.le[bound]) / float64(t.count)
}

// quantileBound is the smallest bucket bound within which at least the share q of the
// refusals were answered (+Inf beyond the last).
func (t refusalTimes) quantileBound(q float64) float64 {
	for _, b := range slices.Sorted(maps.Keys(t.le)) {
		if t.within(b) >= q {
			return b
		}
	}
	return math.Inf(1)
}

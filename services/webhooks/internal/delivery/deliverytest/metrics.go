package deliverytest

import (
	"sync"
	"testing"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
)

// metrics is the meter provider of a test binary, installed globally once (instruments made
// before follow it), with a reader tests collect from.
var metrics struct {
	once   sync.Once
	reader *sdkmetric.ManualReader
}

func collect(t testing.TB) metricdata.ResourceMetrics {
	t.Helper()
	metrics.once.Do(func() {
		metrics.reader = sdkmetric.NewManualReader()
		otel.SetMeterProvider(sdkmetric.NewMeterProvider(sdkmetric.WithReader(metrics.reader)))
	})
	var rm metricdata.ResourceMetrics
	if err := metrics.reader.Collect(t.Context(), &rm); err != nil {
		t.Fatal(err)
	}
	return rm
}

// Count returns the sum of the counter named name over the series whose attribute key has
// value (every series when key is ""), as recorded so far in this test binary: tests compare
// it before and after what they do.
func Count(t testing.TB, name, key, value string) int64 {
	t.Helper()
	var n int64
	for _, sm := range collect(t).ScopeMetrics {
		for _, m := range sm.Metrics {
			sum, ok := m.Data.(metricdata.Sum[int64])
			if m.Name != name || !ok {
				continue
			}
			for _, p := range sum.DataPoints {
				if v, ok := p.Attributes.Value(attribute.Key(key)); key == "" || (ok && v.AsString() == value) {
					n += p.Value
				}
			}
		}
	}
	return n
}

// Observations returns how many values the histogram named name has recorded so far.
func Observations(t testing.TB, name string) uint64 {
	t.Helper()
	var n uint64
	for _, sm := range collect(t).ScopeMetrics {
		for _, m := range sm.Metrics {
			if h, ok := m.Data.(metricdata.Histogram[float64]); ok && m.Name == name {
				for _, p := range h.DataPoints {
					n += p.Count
				}
			}
		}
	}
	return n
}

// Gauge returns the value of the int64 gauge named name (its single series), or -1 when it
// reports none.
func Gauge(t testing.TB, name string) int64 {
	t.Helper()
	for _, sm := range collect(t).ScopeMetrics {
		for _, m := range sm.Metrics {
			if g, ok := m.Data.(metricdata.Gauge[int64]); ok && m.Name == name && len(g.DataPoints) == 1 {
				return g.DataPoints[0].Value
			}
		}
	}
	return -1
}

package checkouttest

import (
	"sync"
	"testing"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
)

// metrics is the meter provider of a test binary, installed globally once (instruments made
// before, such as the service's counters, follow it), with a reader tests collect from.
var metrics struct {
	once   sync.Once
	reader *sdkmetric.ManualReader
}

// Count returns the sum of the counter named name over the series whose attribute key has
// value, as the service recorded it so far in this test binary (tests compare it before and
// after what they do).
func Count(t testing.TB, name, key, value string) int64 {
	t.Helper()
	metrics.once.Do(func() {
		metrics.reader = sdkmetric.NewManualReader()
		otel.SetMeterProvider(sdkmetric.NewMeterProvider(sdkmetric.WithReader(metrics.reader)))
	})
	var rm metricdata.ResourceMetrics
	if err := metrics.reader.Collect(t.Context(), &rm); err != nil {
		t.Fatal(err)
	}
	var n int64
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			sum, ok := m.Data.(metricdata.Sum[int64])
			if m.Name != name || !ok {
				continue
			}
			for _, p := range sum.DataPoints {
				if v, ok := p.Attributes.Value(attribute.Key(key)); ok && v.AsString() == value {
					n += p.Value
				}
			}
		}
	}
	return n
}

// Gauge returns the value of the gauge named name (its single series), or -1 when it reports
// none.
func Gauge(t testing.TB, name string) float64 {
	t.Helper()
	Count(t, name, "", "") // installs the provider
	var rm metricdata.ResourceMetrics
	if err := metrics.reader.Collect(t.Context(), &rm); err != nil {
		t.Fatal(err)
	}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name != name {
				continue
			}
			switch g := m.Data.(type) {
			case metricdata.Gauge[int64]:
				if len(g.DataPoints) == 1 {
					return float64(g.DataPoints[0].Value)
				}
			case metricdata.Gauge[float64]:
				if len(g.DataPoints) == 1 {
					return g.DataPoints[0].Value
				}
			}
		}
	}
	return -1
}

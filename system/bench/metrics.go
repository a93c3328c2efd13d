package bench

import (
	"bytes"
	"context"
	"fmt"
	"net/http"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// scrapeMetrics reads the metric families the service at base serves on /metrics.
func scrapeMetrics(ctx context.Context, base string) (map[string]*dto.MetricFamily, error) {
	status, raw, err := send(ctx, Target{Method: http.MethodGet, URL: base + "/metrics"}, nil)
	if err != nil {
		return nil, err
	}
	if status != http.StatusOK {
		return nil, fmt.Errorf("bench: metrics of %s: status %d", base, status)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("bench: metrics of %s: %w", base, err)
	}
	return families, nil
}

// histogramTotals are the sum and the count of every series of the histogram name in
// families: zero before anything was recorded (an instrument appears with its first value).
func histogramTotals(families map[string]*dto.MetricFamily, name string) (sum float64, count uint64) {
	for _, m := range families[name].GetMetric() {
		sum += m.GetHistogram().GetSampleSum()
		count += m.GetHistogram().GetSampleCount()
	}
	return sum, count
}

// createsPerTransactionMetric is registration's registration.creates.per_transaction histogram
// as /metrics names it.
const createsPerTransactionMetric = "registration_creates_per_transaction"

// Counter names of commitCounters.
const (
	counterCreates      = "creates committed"
	counterTransactions = "transactions"
)

// commitCounters reads the creates registration at base has committed and the transactions
// they took, for Options.Counters.
func commitCounters(ctx context.Context, base string) func() (map[string]float64, error) {
	return func() (map[string]float64, error) {
		families, err := scrapeMetrics(ctx, base)
		if err != nil {
			return nil, err
		}
		sum, count := histogramTotals(families, createsPerTransactionMetric)
		return map[string]float64{counterCreates: sum, counterTransactions: float64(count)}, nil
	}
}

// perTransaction is the creates per transaction of r, read with commitCounters.
func perTransaction(r Result) float64 {
	return r.Counters[counterCreates] / max(r.Counters[counterTransactions], 1)
}

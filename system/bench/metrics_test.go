package bench

import (
	"testing"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/metric"
)

// TestCommitCountersReadTheCreatesPerTransactionOfRegistration: the counters come from the
// histogram as registration declares it (registration.creates.per_transaction, in creates),
// served on /metrics by the services' telemetry, and are zero before its first value.
func TestCommitCountersReadTheCreatesPerTransactionOfRegistration(t *testing.T) {
	base := serveStatuses(t)
	counters := commitCounters(t.Context(), base)
	before, err := counters()
	if err != nil {
		t.Fatal(err)
	}
	if before[counterCreates] != 0 || before[counterTransactions] != 0 {
		t.Fatalf("before any transaction: %v; want zeros", before)
	}
	h, err := otel.Meter("bench-test").Int64Histogram("registration.creates.per_transaction", metric.WithUnit("{create}"),
		metric.WithExplicitBucketBoundaries(1, 2, 4, 8, 16, 32, 64, 128))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int64{23, 17, 1} {
		h.Record(t.Context(), n)
	}
	after, err := counters()
	if err != nil {
		t.Fatal(err)
	}
	r := Result{Counters: map[string]float64{}}
	for k, v := range after {
		r.Counters[k] = v - before[k]
	}
	if r.Counters[counterCreates] != 41 || r.Counters[counterTransactions] != 3 || perTransaction(r) != 41.0/3 {
		t.Fatalf("counters %v, %.2f per transaction; want 41 creates in 3 transactions", r.Counters, perTransaction(r))
	}
}

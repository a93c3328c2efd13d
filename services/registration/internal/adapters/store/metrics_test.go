package store_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"go.opentelemetry.io/otel"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/podiumhq/podium/services/registration/internal/adapters/store"
	"github.com/podiumhq/podium/services/registration/internal/regtest"
)

// metrics collects what the store's instruments record in these tests.
var metrics = sdkmetric.NewManualReader()

func init() { otel.SetMeterProvider(sdkmetric.NewMeterProvider(sdkmetric.WithReader(metrics))) }

// createsPerTransaction returns the sum and count of registration.creates.per_transaction.
func createsPerTransaction(t *testing.T) (sum int64, count uint64) {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := metrics.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if h, ok := m.Data.(metricdata.Histogram[int64]); ok && m.Name == "registration.creates.per_transaction" {
				for _, dp := range h.DataPoints {
					sum, count = sum+dp.Sum, count+dp.Count
				}
			}
		}
	}
	return sum, count
}

// TestCreatesPerTransactionCountEveryCommittedCreateOnce: concurrent creates, some of them
// refused by a quota, add exactly the committed ones to the histogram's sum, in at least one
// and at most as many transactions.
func TestCreatesPerTransactionCountEveryCommittedCreateOnce(t *testing.T) {
	repo := store.New(regtest.NewPool(t, 10))
	e := regtest.Event("evt_m", "org_m")
	sumBefore, countBefore := createsPerTransaction(t)
	const open, masters = 12, 7 // cat_masters has 5 places
	errs := make([]error, open+masters)
	var wg sync.WaitGroup
	for i := range errs {
		cat := "cat_women"
		if i >= open {
			cat = "cat_masters"
		}
		wg.Go(func() { errs[i] = createAthletes(t, repo, e, t0, cat, fmt.Sprint("Athlete", i)) })
	}
	wg.Wait()
	made := madeOrFull(t, errs)
	sum, count := createsPerTransaction(t)
	sum, count = sum-sumBefore, count-countBefore
	if made != open+5 || sum != int64(made) || count < 1 || count > uint64(made) {
		t.Fatalf("%d creates made; the histogram counts %d creates in %d transactions since; want %d made and counted, in 1 to %d transactions", made, sum, count, open+5, made)
	}
}

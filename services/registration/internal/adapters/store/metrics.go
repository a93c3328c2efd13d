package store

import (
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/metric"
)

// createsPerTransaction tells how many creates share a commit (see combiner.go): the sum over
// the count is the mean an operator compares with the database's own ceiling, and a count that
// grows while the sum does not shows creates running alone after failed combined ones.
var createsPerTransaction, _ = otel.Meter("github.com/podiumhq/podium/services/registration/internal/adapters/store").Int64Histogram(
	"registration.creates.per_transaction",
	metric.WithUnit("{create}"),
	metric.WithDescription("Creates committed by one transaction of the combiner: a combined one, or one create run alone after its combined transaction failed."),
	metric.WithExplicitBucketBoundaries(1, 2, 4, 8, 16, 32, 64, 128),
)

package postgres_test

import (
	"slices"
	"testing"

	"go.opentelemetry.io/otel/trace"

	"github.com/podiumhq/podium/libs/testkit"
)

// TestQuerySpansAreNamedByWhatTheyDo runs a sqlc-style named query and unnamed statements on a
// pool and reads the names of the spans they recorded.
func TestQuerySpansAreNamedByWhatTheyDo(t *testing.T) {
	tp, spans := testkit.Tracing(t)
	pool := testkit.Pool(t, widgets)
	ctx, parent := tp.Tracer("test").Start(t.Context(), "request", trace.WithSpanKind(trace.SpanKindServer))
	if _, err := pool.Exec(ctx, "INSERT INTO widgets (id, name) VALUES ($1, $2)", 1, "gear"); err != nil {
		t.Fatal(err)
	}
	var name string
	if err := pool.QueryRow(ctx, "-- name: GetWidget :one\nSELECT name FROM widgets WHERE id = $1", 1).Scan(&name); err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, "SELECT pg_notify('widgets', '')"); err != nil {
		t.Fatal(err)
	}
	parent.End()

	var names []string
	for _, s := range spans.Ended() {
		if s.Parent().SpanID() == parent.SpanContext().SpanID() && s.SpanKind() == trace.SpanKindClient {
			names = append(names, s.Name())
		}
	}
	names = slices.Compact(names) // a statement prepared on first use has a prepare span of its own name
	if want := []string{"INSERT widgets", "GetWidget", "SELECT"}; !slices.Equal(names, want) {
		t.Fatalf("database spans %q, want %q", names, want)
	}
}

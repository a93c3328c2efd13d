package telemetry_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/propagation"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/podiumhq/podium/libs/telemetry"
)

func TestSetupRecordsSpansAndPropagatesW3C(t *testing.T) {
	exp := &collector{}
	tel, err := telemetry.Setup(t.Context(), telemetry.Options{
		Service: "test", SampleRatio: 1, Exporter: exp,
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, span := otel.Tracer("t").Start(t.Context(), "op")
	h := http.Header{}
	otel.GetTextMapPropagator().Inject(ctx, propagation.HeaderCarrier(h))
	span.End()
	if err := tel.Shutdown(t.Context()); err != nil {
		t.Fatal(err)
	}

	spans := exp.spans
	if len(spans) != 1 || spans[0].Name() != "op" {
		t.Fatalf("recorded %d spans, want the one named op", len(spans))
	}
	want := "00-" + spans[0].SpanContext().TraceID().String() + "-" + spans[0].SpanContext().SpanID().String() + "-01"
	if got := h.Get("traceparent"); got != want {
		t.Fatalf("traceparent = %q, want %q", got, want)
	}
}

func TestSetupRejectsBadEndpoint(t *testing.T) {
	if _, err := telemetry.Setup(t.Context(), telemetry.Options{Service: "t", Endpoint: "::nope"}); err == nil {
		t.Fatal("Setup accepted an endpoint that is not a URL")
	}
}

// collector keeps exported spans past shutdown (tracetest's exporter clears them on Shutdown).
type collector struct{ spans []sdktrace.ReadOnlySpan }

func (c *collector) ExportSpans(_ context.Context, s []sdktrace.ReadOnlySpan) error {
	c.spans = append(c.spans, s...)
	return nil
}

func (c *collector) Shutdown(context.Context) error { return nil }

func TestMetricsHandlerServesOTelInstruments(t *testing.T) {
	tel, err := telemetry.Setup(t.Context(), telemetry.Options{Service: "test"})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tel.Shutdown(context.Background()) }()
	counter, err := otel.Meter("t").Int64Counter("widgets_made")
	if err != nil {
		t.Fatal(err)
	}
	counter.Add(t.Context(), 2)

	rec := httptest.NewRecorder()
	tel.MetricsHandler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	body := rec.Body.String()
	for _, want := range []string{"widgets_made_total", "go_goroutines", "process_cpu_seconds_total"} {
		if !strings.Contains(body, want) {
			t.Errorf("metrics output lacks %s", want)
		}
	}
}

package logging_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"go.opentelemetry.io/otel/trace"

	"github.com/podiumhq/podium/libs/logging"
)

func TestRecordsCarryServiceAndTraceIDs(t *testing.T) {
	var buf bytes.Buffer
	log := logging.NewTo(&buf, "auth", "info")

	traceID, _ := trace.TraceIDFromHex("4bf92f3577b34da6a3ce929d0e0e4736")
	spanID, _ := trace.SpanIDFromHex("00f067aa0ba902b7")
	ctx := trace.ContextWithSpanContext(t.Context(), trace.NewSpanContext(trace.SpanContextConfig{
		TraceID: traceID, SpanID: spanID, TraceFlags: trace.FlagsSampled,
	}))
	log.With("component", "relay").InfoContext(ctx, "published", "count", 3)
	log.DebugContext(ctx, "hidden below info")

	var rec map[string]any
	if err := json.Unmarshal(buf.Bytes(), &rec); err != nil {
		t.Fatalf("want exactly one JSON line, got %q: %v", buf.String(), err)
	}
	want := map[string]any{
		"service": "auth", "component": "relay", "msg": "published", "count": float64(3),
		"trace_id": traceID.String(), "span_id": spanID.String(),
	}
	for k, v := range want {
		if rec[k] != v {
			t.Errorf("%s = %v, want %v", k, rec[k], v)
		}
	}
}

func TestNoTraceIDsWithoutSpan(t *testing.T) {
	var buf bytes.Buffer
	logging.NewTo(&buf, "gateway", "debug").Info("started")
	var rec map[string]any
	if err := json.Unmarshal(buf.Bytes(), &rec); err != nil {
		t.Fatal(err)
	}
	if _, ok := rec["trace_id"]; ok {
		t.Fatalf("trace_id present without a span: %v", rec)
	}
}

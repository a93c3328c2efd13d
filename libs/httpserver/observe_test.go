package httpserver_test

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gofiber/fiber/v2"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/libs/testkit"
)

func TestServerSpansContinueTheCallersTraceAndRecordDuration(t *testing.T) {
	spans := tracetest.NewSpanRecorder()
	otel.SetTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans)))
	reader := sdkmetric.NewManualReader()
	otel.SetMeterProvider(sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader)))
	otel.SetTextMapPropagator(propagation.TraceContext{})

	srv := httpserver.New(httpserver.Options{Log: testkit.Discard(), BodyLimit: 1024})
	srv.App.Get("/events/:id", func(c *fiber.Ctx) error {
		if c.Params("id") == "boom" {
			return httpserver.NewError(503, "down")
		}
		return c.SendString("ok")
	})
	for _, path := range []string{"/events/1", "/events/2", "/events/boom"} {
		req := httptest.NewRequest("GET", path, nil)
		req.Header.Set("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
		res, err := srv.App.Test(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
	}

	ended := spans.Ended()
	if len(ended) != 3 {
		t.Fatalf("%d spans, want 3", len(ended))
	}
	s := ended[0]
	if s.Name() != "GET /events/:id" || s.Parent().TraceID().String() != "4bf92f3577b34da6a3ce929d0e0e4736" || s.Parent().SpanID().String() != "00f067aa0ba902b7" {
		t.Fatalf("span %q with parent %v", s.Name(), s.Parent())
	}
	if ended[2].Status().Code.String() != "Error" {
		t.Fatalf("a 503 span has status %v", ended[2].Status())
	}

	var rm metricdata.ResourceMetrics
	if err := reader.Collect(t.Context(), &rm); err != nil {
		t.Fatal(err)
	}
	counts := map[int64]uint64{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name != "http.server.request.duration" {
				continue
			}
			for _, dp := range m.Data.(metricdata.Histogram[float64]).DataPoints {
				status, _ := dp.Attributes.Value("http.response.status_code")
				route, _ := dp.Attributes.Value("http.route")
				if route.AsString() != "/events/:id" {
					t.Fatalf("route attribute %q", route.AsString())
				}
				counts[status.AsInt64()] += dp.Count
			}
		}
	}
	if counts[200] != 2 || counts[503] != 1 {
		t.Fatalf("durations recorded per status: %v, want 2 for 200 and 1 for 503", counts)
	}
}

// TestSpansKeepTheirOwnRequestsValues: spans are exported after the handler returns, when Fiber
// has reused the connection's buffers for the next request: a span must still name its own
// method and request id.
func TestSpansKeepTheirOwnRequestsValues(t *testing.T) {
	spans := tracetest.NewSpanRecorder()
	otel.SetTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans)))
	srv := httpserver.New(httpserver.Options{Log: testkit.Discard(), BodyLimit: 1024, TrustRequestID: true})
	srv.App.All("/x", func(c *fiber.Ctx) error { return c.SendString("ok") })
	ln, err := (&net.ListenConfig{}).Listen(t.Context(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.App.Listener(ln) }()
	t.Cleanup(func() { _ = srv.App.Shutdown() })

	client := &http.Client{Transport: &http.Transport{MaxConnsPerHost: 1}} // one connection
	sent := []struct{ method, id string }{{"GET", "req_aaaaaaaa"}, {"PUT", "req_bbbbbbbb"}}
	for _, r := range sent {
		req, _ := http.NewRequestWithContext(t.Context(), r.method, "http://"+ln.Addr().String()+"/x", nil)
		req.Header.Set(httpserver.HeaderRequestID, r.id)
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
	}
	ended := spans.Ended()
	if len(ended) != 2 {
		t.Fatalf("%d spans, want 2", len(ended))
	}
	for i, s := range ended {
		attrs := map[string]string{}
		for _, a := range s.Attributes() {
			attrs[string(a.Key)] = a.Value.String()
		}
		if attrs["http.request.method"] != sent[i].method || attrs["http.request.id"] != sent[i].id || s.Name() != sent[i].method+" /x" {
			t.Fatalf("span %d (%s) carries %v, want %s with %s", i, s.Name(), attrs, sent[i].method, sent[i].id)
		}
	}
}

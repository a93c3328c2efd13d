package httpserver

import (
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"
)

const instrumentation = "github.com/podiumhq/podium/libs/httpserver"

// observe continues the caller's W3C trace in a server span named after the matched route (none
// under the no-op tracer provider, which telemetry installs when spans are not exported) and
// records http.server.request.duration. Spans carry the route's template (http.route), never the
// request's path or query: a path may hold a secret (the console's /signin/<token>), and traces
// are read by more people than may use it. It reads trace headers straight from the request and
// reuses one attribute set per method, route and status, so a request costs a span and one
// histogram update: the gateway's per-request budget is tens of microseconds.
func observe(handleError fiber.ErrorHandler) fiber.Handler {
	tracer := otel.Tracer(instrumentation)
	duration, err := otel.Meter(instrumentation).Float64Histogram("http.server.request.duration",
		metric.WithUnit("s"), metric.WithDescription("Duration of HTTP server requests."),
		metric.WithExplicitBucketBoundaries(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10))
	if err != nil {
		otel.Handle(err)
	}
	sets := &attributeSets{m: map[setKey]metric.RecordOption{}}
	serverKind := trace.WithSpanKind(trace.SpanKindServer)
	return func(c *fiber.Ctx) error {
		start := time.Now()
		ctx := otel.GetTextMapPropagator().Extract(c.UserContext(), HeaderCarrier{&c.Request().Header})
		// Without a tracer provider (no exporter) a span records nothing: the caller's trace
		// context still goes on to every call made for the request, which is all it needs.
		var span trace.Span
		if _, off := otel.GetTracerProvider().(noop.TracerProvider); !off {
			ctx, span = tracer.Start(ctx, c.Method(), serverKind)
			defer span.End()
		}
		c.SetUserContext(ctx)
		if err := c.Next(); err != nil {
			_ = handleError(c, err)
		}
		status, route := c.Response().StatusCode(), c.Route().Path
		if span != nil && span.IsRecording() { // spans outlive the handler: nothing in them may view Fiber's buffers
			method := strings.Clone(c.Method())
			span.SetName(method + " " + route)
			span.SetAttributes(
				attribute.String("http.request.method", method),
				attribute.String("http.route", route),
				attribute.Int("http.response.status_code", status),
				attribute.String("http.request.id", RequestID(c)),
			)
			if status >= 500 {
				span.SetStatus(codes.Error, strconv.Itoa(status))
			}
		}
		duration.Record(ctx, time.Since(start).Seconds(), sets.get(c.Method(), route, status))
		return nil
	}
}

type setKey struct {
	method, route string
	status        int
}

// attributeSets keeps the record option of one metric attribute set per method, route and
// status, made once.
type attributeSets struct {
	mu sync.RWMutex
	m  map[setKey]metric.RecordOption
}

func (a *attributeSets) get(method, route string, status int) metric.RecordOption {
	k := setKey{method, route, status}
	a.mu.RLock()
	s, ok := a.m[k]
	a.mu.RUnlock()
	if ok {
		return s
	}
	k.method = string([]byte(method)) // Fiber reuses the method's bytes between requests
	s = metric.WithAttributeSet(attribute.NewSet(
		attribute.String("http.request.method", k.method),
		attribute.String("http.route", route),
		attribute.Int("http.response.status_code", status),
	))
	a.mu.Lock()
	a.m[k] = s
	a.mu.Unlock()
	return s
}

// HeaderCarrier reads and writes W3C trace headers on a fasthttp request without copying them.
type HeaderCarrier struct{ H *fasthttp.RequestHeader }

func (c HeaderCarrier) Get(k string) string { return string(c.H.Peek(k)) }
func (c HeaderCarrier) Set(k, v string)     { c.H.Set(k, v) }
func (c HeaderCarrier) Keys() []string {
	var keys []string
	for k := range c.H.All() {
		keys = append(keys, string(k))
	}
	return keys
}

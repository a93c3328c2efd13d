// Package telemetry sets up OpenTelemetry: traces exported over OTLP/HTTP with a parent-based ratio
// sampler (the values of URL queries redacted), W3C trace-context propagation, and metrics served
// in the Prometheus format. The
// providers are installed process-wide so instrumentation libraries pick them up.
package telemetry

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	otelprom "go.opentelemetry.io/otel/exporters/prometheus"
	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.40.0"
	"go.opentelemetry.io/otel/trace/noop"
)

// Options configures Setup.
type Options struct {
	// Service is the service.name resource attribute.
	Service string
	// Endpoint is the OTLP/HTTP base URL (http://host:4318). Empty means spans are not recorded,
	// but incoming trace context is still propagated to outgoing calls.
	Endpoint string
	// SampleRatio is the share of new root traces recorded.
	SampleRatio float64
	// Exporter, when set, replaces the OTLP exporter (tests use an in-memory recorder).
	Exporter sdktrace.SpanExporter
}

// Telemetry is the installed providers.
type Telemetry struct {
	// Registry holds the process's Prometheus metrics; services may register their own.
	Registry *prometheus.Registry
	tracer   *sdktrace.TracerProvider
	meter    *sdkmetric.MeterProvider
}

// Setup installs the global propagator, tracer provider and meter provider.
func Setup(ctx context.Context, o Options) (*Telemetry, error) {
	otel.SetTextMapPropagator(propagation.NewCompositeTextMapPropagator(
		propagation.TraceContext{}, propagation.Baggage{},
	))
	res := resource.NewSchemaless(semconv.ServiceName(o.Service))
	t := &Telemetry{Registry: prometheus.NewRegistry()}
	t.Registry.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	reader, err := otelprom.New(otelprom.WithRegisterer(t.Registry), otelprom.WithoutScopeInfo())
	if err != nil {
		return nil, fmt.Errorf("telemetry: prometheus exporter: %w", err)
	}
	t.meter = sdkmetric.NewMeterProvider(sdkmetric.WithResource(res), sdkmetric.WithReader(reader))
	otel.SetMeterProvider(t.meter)

	exp := o.Exporter
	if exp == nil && o.Endpoint != "" {
		if exp, err = otlpExporter(ctx, o.Endpoint); err != nil {
			return nil, err
		}
	}
	if exp != nil {
		t.tracer = sdktrace.NewTracerProvider(
			sdktrace.WithResource(res),
			sdktrace.WithSampler(sdktrace.ParentBased(sdktrace.TraceIDRatioBased(o.SampleRatio))),
			sdktrace.WithBatcher(redactingExporter{exp}, sdktrace.WithBatchTimeout(time.Second)),
		)
		otel.SetTracerProvider(t.tracer)
	} else {
		// Spans would go nowhere: the no-op provider lets instrumentation skip them
		// (libs/httpserver does), while the propagator still carries incoming trace context on.
		otel.SetTracerProvider(noop.NewTracerProvider())
	}
	return t, nil
}

// MetricsHandler serves the registry in the Prometheus text format.
func (t *Telemetry) MetricsHandler() http.Handler {
	return promhttp.HandlerFor(t.Registry, promhttp.HandlerOpts{Registry: t.Registry})
}

// Shutdown flushes pending spans and stops the providers.
func (t *Telemetry) Shutdown(ctx context.Context) error {
	var errs []error
	if t.tracer != nil {
		errs = append(errs, t.tracer.Shutdown(ctx))
	}
	errs = append(errs, t.meter.Shutdown(ctx))
	return errors.Join(errs...)
}

// Close shuts t down within 5 seconds, flushing what it holds, and logs a failure: a service
// defers it at start, and it runs once the run's context has ended.
func (t *Telemetry) Close(log *slog.Logger) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := t.Shutdown(ctx); err != nil {
		log.Warn("telemetry shutdown failed", "err", err)
	}
}

func otlpExporter(ctx context.Context, endpoint string) (sdktrace.SpanExporter, error) {
	u, err := url.Parse(endpoint)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("telemetry: OTLP endpoint %q is not a URL", endpoint)
	}
	opts := []otlptracehttp.Option{otlptracehttp.WithEndpoint(u.Host)}
	if u.Scheme != "https" {
		opts = append(opts, otlptracehttp.WithInsecure())
	}
	if u.Path != "" && u.Path != "/" {
		opts = append(opts, otlptracehttp.WithURLPath(u.Path))
	}
	exp, err := otlptracehttp.New(ctx, opts...)
	if err != nil {
		return nil, fmt.Errorf("telemetry: OTLP exporter: %w", err)
	}
	return exp, nil
}

// Package httpserver builds the Fiber app every service runs: the standard error body, request
// ids, a body limit, tracing, a request deadline, /healthz, /readyz and /metrics, and a graceful
// shutdown that fails readiness first and then drains in-flight requests.
package httpserver

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/adaptor"
	"github.com/gofiber/fiber/v2/middleware/recover"

	"github.com/podiumhq/podium/libs/fault"
)

// Check is a named readiness probe of one dependency.
type Check struct {
	Name string
	Fn   func(context.Context) error
}

// Options configures New.
type Options struct {
	Log *slog.Logger
	// BodyLimit is the largest accepted request body in bytes.
	BodyLimit int
	// TrustRequestID keeps a well-formed incoming X-Request-Id (services behind the gateway).
	TrustRequestID bool
	// Ready lists the dependencies /readyz checks.
	Ready []Check
	// Metrics serves /metrics when set.
	Metrics http.Handler
	// DrainDelay is how long readiness fails before the listener closes, so load balancers
	// stop sending new requests first.
	DrainDelay time.Duration
	// DisableTracing turns off the server span middleware (a service may install its own).
	DisableTracing bool
	// RequestTimeout is the deadline of each request's UserContext on the service's routes (the
	// probes have their own); zero sets none. A request that runs out of time, like one whose
	// Postgres statement or lock wait timed out, answers 503 with Retry-After; so does one that
	// failed because a dependency could not be reached (see unreachable).
	RequestTimeout time.Duration
	// WriteError answers a failure in the app's own format (an HTML page); nil writes the
	// standard JSON error body.
	WriteError func(*fiber.Ctx, *Error) error
	// NoProbes serves no /healthz, /readyz or /metrics: a second listener of a service whose
	// main listener has them.
	NoProbes bool
}

// Server is a Fiber app with health endpoints and a graceful lifecycle.
type Server struct {
	App      *fiber.App
	opts     Options
	draining atomic.Bool
}

// New builds the app. Routes are added to s.App by the caller.
func New(o Options) *Server {
	s := &Server{opts: o}
	s.App = fiber.New(fiber.Config{
		DisableStartupMessage: true,
		StrictRouting:         true,
		CaseSensitive:         true,
		BodyLimit:             o.BodyLimit,
		ReadTimeout:           30 * time.Second,
		WriteTimeout:          30 * time.Second,
		IdleTimeout:           120 * time.Second,
		ErrorHandler:          s.handleError,
	})
	s.App.Use(recover.New(recover.Config{EnableStackTrace: true, StackTraceHandler: s.logPanic}))
	s.App.Use(requestIDMiddleware(o.TrustRequestID))
	if !o.NoProbes {
		s.App.Get("/healthz", func(c *fiber.Ctx) error { return c.JSON(fiber.Map{"status": "ok"}) })
		s.App.Get("/readyz", s.readyz)
	}
	if o.Metrics != nil && !o.NoProbes {
		s.App.Get("/metrics", adaptor.HTTPHandler(o.Metrics))
	}
	if !o.DisableTracing {
		// Registered after the probes, so only the service's own routes get server spans.
		s.App.Use(observe(s.handleError))
	}
	if o.RequestTimeout > 0 {
		s.App.Use(deadline(o.RequestTimeout))
	}
	return s
}

func (s *Server) readyz(c *fiber.Ctx) error {
	if s.draining.Load() {
		return WriteError(c, NewError(http.StatusServiceUnavailable, "shutting down"))
	}
	ctx, cancel := context.WithTimeout(c.UserContext(), 2*time.Second)
	defer cancel()
	for _, chk := range s.opts.Ready {
		if err := chk.Fn(ctx); err != nil {
			s.opts.Log.WarnContext(ctx, "readiness check failed", "check", chk.Name, "err", err)
			return WriteError(c, NewError(http.StatusServiceUnavailable, chk.Name+" is not ready"))
		}
	}
	return c.JSON(fiber.Map{"status": "ready"})
}

func (s *Server) handleError(c *fiber.Ctx, err error) error {
	e, internal := classify(err)
	switch {
	case e == errTimedOut:
		s.opts.Log.WarnContext(c.UserContext(), "request timed out",
			"method", c.Method(), "route", c.Route().Path, "request_id", RequestID(c), "err", err)
	case e == errUnavailable || fault.KindOf(err) == fault.Unavailable:
		s.opts.Log.WarnContext(c.UserContext(), "request failed: a dependency is unreachable",
			"method", c.Method(), "route", c.Route().Path, "request_id", RequestID(c), "err", err)
	case internal:
		s.opts.Log.ErrorContext(c.UserContext(), "request failed",
			"method", c.Method(), "route", c.Route().Path, "status", e.Status,
			"request_id", RequestID(c), "err", err)
	}
	if s.opts.WriteError != nil {
		return s.opts.WriteError(c, e)
	}
	return WriteError(c, e)
}

func (s *Server) logPanic(c *fiber.Ctx, v any) {
	s.opts.Log.ErrorContext(c.UserContext(), "panic in handler",
		"method", c.Method(), "route", c.Route().Path, "request_id", RequestID(c), "panic", fmt.Sprint(v))
}

// Serve accepts connections on ln until ctx is done, then fails readiness for DrainDelay and
// shuts down, giving in-flight requests up to timeout to finish.
func (s *Server) Serve(ctx context.Context, ln net.Listener, timeout time.Duration) error {
	errc := make(chan error, 1)
	go func() { errc <- s.App.Listener(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("httpserver: %w", err)
	case <-ctx.Done():
	}
	s.draining.Store(true)
	s.opts.Log.Info("shutting down: readiness failing, draining requests", "drain_delay", s.opts.DrainDelay)
	time.Sleep(s.opts.DrainDelay)
	if err := s.App.ShutdownWithTimeout(timeout); err != nil {
		return fmt.Errorf("httpserver: shutdown: %w", err)
	}
	if err := <-errc; err != nil && !errors.Is(err, net.ErrClosed) {
		return fmt.Errorf("httpserver: %w", err)
	}
	return nil
}

// ListenAndServe listens on addr and calls Serve.
func (s *Server) ListenAndServe(ctx context.Context, addr string, timeout time.Duration) error {
	ln, err := (&net.ListenConfig{}).Listen(ctx, "tcp", addr)
	if err != nil {
		return fmt.Errorf("httpserver: listen %s: %w", addr, err)
	}
	s.opts.Log.Info("listening", "addr", ln.Addr().String())
	return s.Serve(ctx, ln, timeout)
}

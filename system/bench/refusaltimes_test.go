package bench

import (
	"context"
	"io"
	"log/slog"
	"math"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/libs/telemetry"
)

// serveStatuses serves /status/<code> answering that code, with a service's telemetry and
// /metrics, and returns its base URL.
func serveStatuses(t *testing.T) string {
	t.Helper()
	tel, err := telemetry.Setup(t.Context(), telemetry.Options{Service: "refusals-test"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tel.Shutdown(context.Background()) })
	srv := httpserver.New(httpserver.Options{Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Metrics: tel.MetricsHandler()})
	srv.App.Get("/status/:code<int>", func(c *fiber.Ctx) error {
		code, _ := c.ParamsInt("code")
		c.Set(fiber.HeaderRetryAfter, "1")
		return c.SendStatus(code)
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln, time.Second) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	})
	return "http://" + ln.Addr().String()
}

func get(t *testing.T, url string, times int) {
	t.Helper()
	for range times {
		res, err := http.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
	}
}

func TestRefusalTimesCountOnlyTheGatewaysRefusalsSinceAScrape(t *testing.T) {
	base := serveStatuses(t)
	get(t, base+"/status/429", 3)
	get(t, base+"/status/200", 4)
	before, err := scrapeRefusalTimes(t.Context(), base)
	if err != nil {
		t.Fatal(err)
	}
	if before[429].count != 3 || before[503].count != 0 {
		t.Fatalf("refusals before: %d 429, %d 503; want the 3 answers 429", before[429].count, before[503].count)
	}
	get(t, base+"/status/429", 2)
	get(t, base+"/status/503", 5)
	get(t, base+"/status/404", 6)
	get(t, base+"/status/200", 7)
	after, err := scrapeRefusalTimes(t.Context(), base)
	if err != nil {
		t.Fatal(err)
	}
	limited, shed := after[429].since(before[429]), after[503].since(before[503])
	if limited.count != 2 || shed.count != 5 {
		t.Fatalf("refusals since: %d 429, %d 503; want 2 and 5", limited.count, shed.count)
	}
	if len(after) != 2 {
		t.Errorf("statuses %v, want only the refusals 429 and 503", after)
	}
	d := shed
	// The histogram's bounds are those the services record with: the target's 1ms is one.
	if _, ok := d.le[0.001]; !ok {
		t.Fatalf("no 1ms bucket among %v", d.le)
	}
	for bound, n := range d.le {
		if n > d.count {
			t.Errorf("%d refusals within %gs, more than the %d refusals", n, bound, d.count)
		}
	}
}

func TestTheRefusalsQuantileBoundIsTheFirstBucketHoldingItsShare(t *testing.T) {
	times := refusalTimes{count: 1000, le: map[float64]uint64{0.0005: 950, 0.001: 990, 0.0025: 999, 0.005: 999}}
	for _, c := range []struct {
		q    float64
		want float64
	}{{0.5, 0.0005}, {0.95, 0.0005}, {0.96, 0.001}, {0.99, 0.001}, {0.999, 0.0025}, {1, math.Inf(1)}} {
		if got := times.quantileBound(c.q); got != c.want {
			t.Errorf("quantileBound(%g) = %g, want %g", c.q, got, c.want)
		}
	}
	if got := times.within(0.001); got != 0.99 {
		t.Errorf("within(1ms) = %g, want 0.99", got)
	}
	if got := (refusalTimes{}).within(0.001); got != 0 {
		t.Errorf("within of no refusals = %g, want 0", got)
	}
}

package admin_test

import (
	"context"
	"io"
	"log/slog"
	"net"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/admin"
	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/libs/testkit"
)

const token = "operator-token-for-admin-tests-0123456789"

// widget is what the test admin API serves.
type widget struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// serve runs an admin API of the service "shop" on loopback until the test ends and returns
// its address: its widgets, an import that tells its result in a header, and refusals.
func serve(t *testing.T) string {
	t.Helper()
	s := httpserver.New(httpserver.Options{Log: slog.New(slog.NewTextHandler(io.Discard, nil)), BodyLimit: 1 << 20})
	ops := s.App.Group("/admin", admin.RequireOperator("shop", token))
	ops.Get("/widgets", func(c *fiber.Ctx) error {
		return c.JSON(fiber.Map{"data": []widget{{ID: "w1", Name: "Bolt\n2026 forged\x1b[2J"}}, "total": 3, "offset": 1})
	})
	ops.Put("/widgets/:id", func(c *fiber.Ctx) error {
		c.Set("Widget-Result", "created "+c.Params("id"))
		return c.JSON(widget{ID: c.Params("id"), Name: string(c.Body())})
	})
	ops.Post("/bad", func(*fiber.Ctx) error { return httpserver.BadRequest("a must be set", "b must be at most 3") })
	ops.Post("/taken", func(*fiber.Ctx) error { return fault.NewConflict("widget \"w1\x1b[2J\" is taken") })
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	testkit.Background(t, func(ctx context.Context) error { return s.Serve(ctx, ln, 5*time.Second) })
	return "http://" + ln.Addr().String()
}

// closedURL is the address of a port nothing listens on.
func closedURL(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return "http://" + ln.Addr().String()
}

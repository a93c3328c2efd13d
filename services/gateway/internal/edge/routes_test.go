package edge

import (
	"slices"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/services/gateway/internal/proxy"
)

// TestLiteralPreflightPathsComeFirst: Fiber tries routes in the order they were added, so the
// preflight of /browser/events/search must precede /browser/events/:eventId's, which would
// otherwise answer it with GET only and make browsers refuse the POST search.
func TestLiteralPreflightPathsComeFirst(t *testing.T) {
	upstreams := map[string]*proxy.Upstream{}
	for _, name := range ownerNames {
		u, err := proxy.New(name, "http://127.0.0.1:1", time.Second)
		if err != nil {
			t.Fatal(err)
		}
		upstreams[name] = u
	}
	const search, byID = BasePath + "/browser/events/search", BasePath + "/browser/events/:eventId"
	for range 20 { // the operations are collected in a map, whose order varies
		app := fiber.New()
		if err := (&Gateway{Upstreams: upstreams}).Register(app); err != nil {
			t.Fatal(err)
		}
		var preflights []string
		for _, r := range app.GetRoutes() {
			if r.Method == fiber.MethodOptions {
				preflights = append(preflights, r.Path)
			}
		}
		if i, j := slices.Index(preflights, search), slices.Index(preflights, byID); i < 0 || j < 0 || i > j {
			t.Fatalf("preflight routes in the order %v", preflights)
		}
	}
}

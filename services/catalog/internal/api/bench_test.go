package api_test

import (
	"net"
	"testing"

	"github.com/valyala/fasthttp"

	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/catalog/internal/catalogtest"
)

// benchHandler calls the service's handler chain (identity verification, routing, the cached
// answer, headers) without a network, as the gateway's requests reach it.
func benchHandler(b *testing.B, method, path, body string, want int) {
	env := catalogtest.Start(b, catalogtest.Options{})
	id := env.Import(b, orgA, catalogtest.Demo(b, "summer-throwdown")).Body["id"].(string)
	env.Import(b, orgA, catalogtest.Demo(b, "winter-draft"))
	env.Import(b, orgA, catalogtest.Demo(b, "members-only"))
	path = replaceID(path, id)
	handler := env.App.Handler()
	var req fasthttp.Request
	req.Header.SetMethod(method)
	req.SetRequestURI(path)
	req.Header.Set(identity.Header, env.Publishable(b, orgA)[identity.Header])
	req.Header.SetContentType("application/json")
	req.SetBodyString(body)
	var ctx fasthttp.RequestCtx
	ctx.Init(&req, &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 1}, nil)
	handler(&ctx) // warm the cache
	if ctx.Response.StatusCode() != want {
		b.Fatalf("%s %s: %d %s", method, path, ctx.Response.StatusCode(), ctx.Response.Body())
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		ctx.Response.Reset()
		handler(&ctx)
		if ctx.Response.StatusCode() != want {
			b.Fatalf("status %d", ctx.Response.StatusCode())
		}
	}
}

func replaceID(path, id string) string {
	const marker = "{id}"
	for i := 0; i+len(marker) <= len(path); i++ {
		if path[i:i+len(marker)] == marker {
			return path[:i] + id + path[i+len(marker):]
		}
	}
	return path
}

// BenchmarkBrowserSearchCached measures a repeated public search (the event page's list).
func BenchmarkBrowserSearchCached(b *testing.B) {
	benchHandler(b, "POST", "/external/v1/browser/events/search", `{"search":"summer","limit":20}`, 201)
}

// BenchmarkBrowserPricingCached measures repeated public pricing cards of one event.
func BenchmarkBrowserPricingCached(b *testing.B) {
	benchHandler(b, "GET", "/external/v1/browser/events/{id}/pricing-cards", "", 200)
}

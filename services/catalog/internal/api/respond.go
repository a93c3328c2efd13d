package api

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/catalog/internal/app"
	"github.com/podiumhq/podium/services/catalog/internal/cache"
	"github.com/podiumhq/podium/services/catalog/internal/domain"
)

// Cache-Control of each kind of answer.
const (
	cacheBrowserDetail  = "public, max-age=5, stale-while-revalidate=30"
	cacheBrowserPricing = "public, max-age=1"
	cacheOrganizer      = "private, no-cache"
	cachePreview        = "private, no-store"
	cacheNone           = "no-store"
	// cacheTest: a test key's answer may show a draft and test counts; no cache shares it.
	cacheTest = "private, no-store"
)

// scopeOf returns the scope of p's reads: its organizer's events, places of its mode.
func scopeOf(p identity.Principal) domain.OrganizerScope {
	return domain.ForOrganizer(p.OrganizerID).InMode(p.Livemode())
}

// modeKey separates the cached answers of test keys from those of live keys.
func modeKey(p identity.Principal) string {
	if p.Test {
		return "test"
	}
	return "live"
}

// cacheControlFor is the Cache-Control of an answer to p: live for a live key, cacheTest for a
// test key.
func cacheControlFor(p identity.Principal, live string) string {
	if p.Test {
		return cacheTest
	}
	return live
}

// handlers parse requests, call the use cases and write their results. Values taken from the
// Fiber context are cloned, because Fiber reuses its buffers after the handler returns.
type handlers struct {
	svc        *app.Service
	cache      *cache.Cache
	ttl        time.Duration
	pricingTTL time.Duration
	edgeTTL    time.Duration
}

// render marshals a view for the cache, served until expires.
func render(v any, expires time.Time) (cache.Fill, error) {
	b, err := json.Marshal(v)
	return cache.Fill{Body: b, Expires: expires}, err
}

// headerSurrogateControl lets the gateway, a shared cache, keep an answer (W3C Edge
// Architecture); it never reaches clients.
const headerSurrogateControl = "Surrogate-Control"

// edgeMargin is kept between an answer's last second at the edge and the moment it stops being
// true: the gateway counts its lifetime from when the answer reaches it, a little later, on a
// clock that may differ a little.
const edgeMargin = 250 * time.Millisecond

// shareAtEdge lets the gateway keep a public answer for the edge TTL, never past the moment it
// stops being true (a tier boundary of pricing cards); a test key's answer, never.
func (h *handlers) shareAtEdge(c *fiber.Ctx, p identity.Principal, e cache.Entry) {
	if p.Test {
		return
	}
	ttl := h.edgeTTL
	if !e.Until.IsZero() {
		ttl = min(ttl, e.Until.Sub(h.svc.Now())-edgeMargin)
	}
	if s := int64(ttl / time.Second); s > 0 {
		c.Set(headerSurrogateControl, "max-age="+strconv.FormatInt(s, 10))
	}
}

// loadCtx is the context of a cached load: shared by the requests that wait for it, so one
// caller going away does not fail the others.
func loadCtx(c *fiber.Ctx) context.Context { return context.WithoutCancel(c.UserContext()) }

// sendJSON writes a JSON body with its status and Cache-Control.
func sendJSON(c *fiber.Ctx, status int, body []byte, cacheControl string) error {
	c.Set(fiber.HeaderCacheControl, cacheControl)
	c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
	return c.Status(status).Send(body)
}

// sendValidated writes a cached answer of a GET with its ETag, or 304 Not Modified when the
// client's If-None-Match already names it.
func sendValidated(c *fiber.Ctx, e cache.Entry, cacheControl string) error {
	c.Set(fiber.HeaderETag, e.ETag)
	if noneMatch := c.Get(fiber.HeaderIfNoneMatch); httpserver.ETagMatches(noneMatch, e.ETag) {
		c.Set(fiber.HeaderCacheControl, cacheControl)
		return c.SendStatus(fiber.StatusNotModified)
	}
	return sendJSON(c, fiber.StatusOK, e.Body, cacheControl)
}

// param returns a copy of the named path parameter.
func param(c *fiber.Ctx, name string) string { return strings.Clone(c.Params(name)) }

// query returns a copy of the named query parameter.
func query(c *fiber.Ctx, name string) string { return strings.Clone(c.Query(name)) }

package edge

import (
	"strconv"

	"github.com/gofiber/fiber/v2"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"

	"github.com/podiumhq/podium/libs/apikey"
	"github.com/podiumhq/podium/libs/apispec"
	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/services/gateway/internal/edgecache"
)

// headerXCache tells whether an answer of a shareable operation came from the edge cache.
const headerXCache = "X-Cache"

var (
	edgeLookups, _ = otel.Meter("github.com/podiumhq/podium/services/gateway/internal/edge").Int64Counter(
		"gateway.edge_cache.lookups", metric.WithDescription("Lookups of shareable answers in the edge cache, by result."))
	edgeHit  = metric.WithAttributeSet(attribute.NewSet(attribute.String("result", "hit")))
	edgeMiss = metric.WithAttributeSet(attribute.NewSet(attribute.String("result", "miss")))
)

// maxSharedBody is the largest body of a request whose answer the edge keeps: searches are
// small, and a large or padded one must not cost a hash per request or crowd out the hot ones.
const maxSharedBody = 1024

// lookupEdge finds the answer the edge cache keeps for the request, when op's answers may be
// kept and one is. Otherwise it returns the key under which to keep the owner's answer, and
// keep false when this request's answer is never kept: op is not shareable, or the request has
// a query string (a preview token), a body on a GET or a body over maxSharedBody. It runs after
// the key and origin checks and a kept answer is served (serveKept) after the limit checks, so
// only to whom the owner would serve it; the body is part of the key, so a hit needs no schema
// validation (only bodies that passed it reach the owner).
func (g *Gateway) lookupEdge(c *fiber.Ctx, op apispec.Operation, organizerID string, mode apikey.Mode) (key edgecache.Key, keep bool, kept *edgecache.Entry) {
	req := c.Request()
	body := req.Body() // as sent: compressed bodies were refused before
	if g.Edge == nil || !shareable[op.ID] || len(req.URI().QueryString()) > 0 || len(body) > maxSharedBody ||
		(len(body) > 0 && req.Header.IsGet()) {
		return key, false, nil
	}
	key = edgeKey(organizerID, mode, g.Edge.Generation(organizerID), req.Header.Method(), op.ID, routeParams(c), body)
	e, ok := g.Edge.Get(key)
	if !ok {
		edgeLookups.Add(c.UserContext(), 1, edgeMiss)
		return key, true, nil
	}
	edgeLookups.Add(c.UserContext(), 1, edgeHit)
	return key, false, e
}

// keepAtEdge keeps the owner's answer now in c under key when the owner allowed it.
func (g *Gateway) keepAtEdge(c *fiber.Ctx, key edgecache.Key) {
	c.Set(headerXCache, "MISS")
	g.Edge.Put(key, c.Response())
}

// edgeKey is a digest of everything a shareable answer depends on: the organizer (the key's,
// checked already), the key's mode (a test key's answers are kept apart from live ones: its
// owner may answer it otherwise, e.g. with unpublished events) and its generation, the method, the operation the request was routed to
// and its path parameters as sent, and the body. It never uses the decoded path: the router
// matches the raw one, so /events/evt_1%2Fpricing-cards is a read of the event
// "evt_1%2Fpricing-cards", whose decoded path is that of evt_1's pricing cards.
func edgeKey(organizerID string, mode apikey.Mode, gen edgecache.Generation, method []byte, opID string, params [][]byte, body []byte) edgecache.Key {
	parts := [][]byte{[]byte(organizerID), []byte(mode), strconv.AppendUint(nil, gen.All, 10), strconv.AppendUint(nil, gen.Scope, 10), method, []byte(opID)}
	parts = append(parts, params...)
	return digest(append(parts, body)...)
}

// routeParams are the raw values of the route's path parameters, in the route's order.
func routeParams(c *fiber.Ctx) [][]byte {
	names := c.Route().Params
	params := make([][]byte, len(names))
	for i, name := range names {
		params[i] = []byte(c.Params(name))
	}
	return params
}

// serveKept writes a kept answer, or 304 Not Modified when If-None-Match names its ETag.
func serveKept(c *fiber.Ctx, e *edgecache.Entry) error {
	h := &c.Response().Header
	for _, kv := range e.Headers {
		h.SetBytesKV(kv[0], kv[1])
	}
	h.Set(headerXCache, "HIT")
	if noneMatch := c.Get(fiber.HeaderIfNoneMatch); noneMatch != "" {
		if etag := h.Peek(fiber.HeaderETag); len(etag) > 0 && httpserver.ETagMatches(noneMatch, string(etag)) {
			return c.SendStatus(fiber.StatusNotModified)
		}
	}
	c.Status(e.Status)
	c.Response().SetBodyRaw(e.Body) // kept bodies are never written to
	return nil
}

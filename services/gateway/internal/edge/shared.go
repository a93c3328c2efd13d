package edge

import (
	"bytes"
	"strconv"

	"github.com/gofiber/fiber/v2"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"

	"github.com/podiumhq/podium/libs/apispec"
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

// fromEdge answers the request from the edge cache when op's answers may be kept and one is.
// Otherwise it returns the key under which to keep the owner's answer, nil when op's answers
// are never kept. It runs after the key, origin and limit checks, so a kept answer is served
// only to whom the owner would serve it; a body is part of the key, so a hit needs no schema
// validation (only bodies that passed it reach the owner).
func (g *Gateway) fromEdge(c *fiber.Ctx, op apispec.Operation, organizerID string) (key []byte, served bool, err error) {
	if g.Edge == nil || !shareable[op.ID] {
		return nil, false, nil
	}
	key = edgeKey(organizerID, g.Edge.Generation(organizerID), c)
	e, ok := g.Edge.Get(key)
	if !ok {
		edgeLookups.Add(c.UserContext(), 1, edgeMiss)
		c.Set(headerXCache, "MISS")
		return key, false, nil
	}
	edgeLookups.Add(c.UserContext(), 1, edgeHit)
	return nil, true, serveKept(c, e)
}

// keepAtEdge keeps the owner's answer now in c under key when the owner allowed it.
func (g *Gateway) keepAtEdge(c *fiber.Ctx, key []byte) {
	if key != nil {
		g.Edge.Put(key, c.Response())
	}
}

// edgeKey is everything a shareable answer depends on: the organizer (the key's, checked
// already) and its generation, the method, the path with its query and the body.
func edgeKey(organizerID string, gen uint64, c *fiber.Ctx) []byte {
	uri, body := c.Request().RequestURI(), c.Body()
	k := make([]byte, 0, len(organizerID)+len(uri)+len(body)+32)
	k = append(k, organizerID...)
	k = strconv.AppendUint(append(k, 0), gen, 10)
	k = append(append(k, 0), c.Request().Header.Method()...)
	k = append(append(k, 0), uri...)
	return append(append(k, 0), body...)
}

// serveKept writes a kept answer, or 304 Not Modified when If-None-Match names its ETag.
func serveKept(c *fiber.Ctx, e *edgecache.Entry) error {
	h := &c.Response().Header
	for _, kv := range e.Headers {
		h.SetBytesKV(kv[0], kv[1])
	}
	h.Set(headerXCache, "HIT")
	if etag := h.Peek(fiber.HeaderETag); len(etag) > 0 && etagMatches(c.Request().Header.Peek(fiber.HeaderIfNoneMatch), etag) {
		return c.SendStatus(fiber.StatusNotModified)
	}
	c.Status(e.Status)
	c.Response().SetBodyRaw(e.Body) // kept bodies are never written to
	return nil
}

// etagMatches applies If-None-Match's weak comparison: "*" or any listed tag equal to etag,
// ignoring W/ prefixes.
func etagMatches(header, etag []byte) bool {
	for len(header) > 0 {
		var tag []byte
		tag, header, _ = bytes.Cut(header, []byte(","))
		tag = bytes.TrimPrefix(bytes.TrimSpace(tag), []byte("W/"))
		if bytes.Equal(tag, []byte("*")) || bytes.Equal(tag, etag) {
			return true
		}
	}
	return false
}

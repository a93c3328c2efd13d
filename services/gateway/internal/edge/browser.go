package edge

import (
	"errors"
	"slices"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/apikey"
	"github.com/podiumhq/podium/libs/apispec"
	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/gateway/internal/proxy"
)

var errNoOrigin = httpserver.Forbidden(codeOriginMissing, "the Origin header is required on browser endpoints")

// browser serves an operation of the browser surface with the spec's checks in its order: the
// body within the operation's size, the publishable-key prefix, the key neither revoked nor
// expired, an Origin present and allowed for the key, and for checkout sessions the redirect
// URLs on an allowed origin.
func (g *Gateway) browser(op apispec.Operation, owner *proxy.Upstream) fiber.Handler {
	tooLarge := bodyTooLarge(op)
	return func(c *fiber.Ctx) error {
		origin := originOf(c.Get(fiber.HeaderOrigin))
		err := tooLarge(c)
		if err == nil {
			err = g.serveBrowser(c, op, owner, origin)
		}
		if err != nil && origin != "" && len(c.Response().Header.Peek(fiber.HeaderAccessControlAllowOrigin)) == 0 {
			g.corsForRefusal(c, origin)
		}
		return err
	}
}

// corsForRefusal lets the page read why it was refused when its origin is one some key allows.
// Asking auth about an origin not decided yet counts against the address's lookup limit; past
// it the refusal goes as it is, without CORS headers (and without the lookup limit's headers:
// the refusal is not about it).
func (g *Gateway) corsForRefusal(c *fiber.Ctx, origin string) {
	ip := g.clientIP(c)
	admit := func() error {
		if !g.addressDecision(c, "lookup", ip, g.Limits.KeyLookupPerIP).Allowed {
			return errLookupsExhausted
		}
		return nil
	}
	if ok, _ := g.Keys.OriginAllowed(c.UserContext(), origin, g.Now(), admit); ok {
		setCORS(c, origin)
	}
}

var errLookupsExhausted = errors.New("edge: the address's lookup limit is exhausted")

func (g *Gateway) serveBrowser(c *fiber.Ctx, op apispec.Operation, owner *proxy.Upstream, origin string) error {
	raw := c.Get(headerPublishableKey)
	if raw == "" {
		if c.Get(fiber.HeaderAuthorization) != "" || c.Get(headerAPIKey) != "" {
			return errSecretInBrowser
		}
		return errNoPublishableKey
	}
	parsed, err := parse(raw)
	if err != nil {
		return err
	}
	if parsed.typ != apikey.Publishable {
		g.Log.WarnContext(c.UserContext(), "secret key sent to a browser endpoint", "origin", origin)
		return errSecretInBrowser
	}
	ip := g.clientIP(c)
	key, err := g.resolve(c, parsed, ip)
	if err != nil {
		return err
	}
	sent := c.Get(fiber.HeaderOrigin)
	if sent == "" {
		return errNoOrigin
	}
	if origin == "" || !slices.Contains(key.AllowedOrigins, origin) {
		return httpserver.Forbidden(codeOriginNotAllowed, "origin "+sent+" is not allowed for this publishable key")
	}
	setCORS(c, origin)
	// An answer the edge keeps is served whatever the owners' load; a request that needs its
	// owner is shed, if it must be, before it spends its rate limits.
	edgeKey, keep, kept := g.lookupEdge(c, op, key.OrganizerID, parsed.mode)
	if kept == nil {
		if err := g.shed(c, owner, priorities[op.ID]); err != nil {
			return err
		}
	}
	if err := g.limit(c, op, key.ID, ip, parsed.mode); err != nil {
		return err
	}
	if err := checkContentType(c, op); err != nil {
		return err
	}
	if kept != nil {
		return serveKept(c, kept)
	}
	place, err := g.admit(c, owner, priorities[op.ID])
	if err != nil {
		return err
	}
	var redirects func([]byte) error
	if op.ID == opCheckoutSession {
		redirects = func(body []byte) error { return redirectsAllowed(body, key.AllowedOrigins) }
	}
	if err := g.validateBody(c, op, key.ID, redirects); err != nil {
		release(place)
		return err
	}
	err = g.forward(c, owner, place, identity.Principal{
		OrganizerID: key.OrganizerID, KeyID: key.ID, KeyType: identity.Publishable, Origin: origin,
		Test: parsed.mode == apikey.Test,
	}, ip, proxy.Forward{Shareable: keep})
	if err == nil && keep {
		g.keepAtEdge(c, edgeKey)
	}
	return err
}

// exposedHeaders are the response headers page scripts may read.
const exposedHeaders = "X-Request-Id, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, RateLimit-Policy, ETag, Idempotent-Replayed"

// setCORS lets the page at origin (normalized, never the raw header) read the answer. Answers
// differ by key (each organizer sees its own events) and are public (Cache-Control), so a
// shared cache in front must key them by the publishable key too.
func setCORS(c *fiber.Ctx, origin string) {
	c.Set(fiber.HeaderAccessControlAllowOrigin, origin)
	c.Set(fiber.HeaderAccessControlExposeHeaders, exposedHeaders)
	c.Vary(fiber.HeaderOrigin, headerPublishableKey)
}

// preflight answers CORS preflights of a browser path. A preflight carries no key, so the origin
// must be allowed by some active publishable key; asking auth about an origin not decided yet
// counts against the address's lookup limit.
func (g *Gateway) preflight(methods []string) fiber.Handler {
	allow := strings.Join(append(slices.Clone(methods), fiber.MethodOptions), ", ")
	return func(c *fiber.Ctx) error {
		c.Vary(fiber.HeaderOrigin)
		sent := c.Get(fiber.HeaderOrigin)
		if sent == "" {
			return errNoOrigin
		}
		origin := originOf(sent)
		ip := g.clientIP(c)
		if err := g.allowAddress(c, "preflight", ip, g.Limits.PublicPerIP); err != nil {
			return err
		}
		if origin == "" {
			return httpserver.Forbidden(codeOriginNotAllowed, "origin "+sent+" is not allowed by any publishable key")
		}
		ok, err := g.Keys.OriginAllowed(c.UserContext(), origin, g.Now(), g.admitLookup(c, ip, apikey.Live))
		var limited *httpserver.Error
		switch {
		case errors.As(err, &limited):
			return limited
		case err != nil:
			g.Log.ErrorContext(c.UserContext(), "origin check failed", "err", err)
			return errKeysUnavailable
		case !ok:
			return httpserver.Forbidden(codeOriginNotAllowed, "origin "+sent+" is not allowed by any publishable key")
		}
		c.Set(fiber.HeaderAccessControlAllowOrigin, origin)
		c.Set(fiber.HeaderAccessControlAllowMethods, allow)
		c.Set(fiber.HeaderAccessControlAllowHeaders, "x-publishable-key, content-type")
		c.Set(fiber.HeaderAccessControlMaxAge, "600")
		return c.SendStatus(fiber.StatusNoContent)
	}
}

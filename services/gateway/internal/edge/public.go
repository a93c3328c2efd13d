package edge

import (
	"crypto/sha256"
	"encoding/hex"

	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/apispec"
	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/gateway/internal/proxy"
)

// document serves the OpenAPI document, cacheable and readable from any page.
func (g *Gateway) document() fiber.Handler {
	doc := apispec.Document()
	sum := sha256.Sum256(doc)
	etag := `"` + hex.EncodeToString(sum[:16]) + `"`
	return func(c *fiber.Ctx) error {
		if d := g.Limiter.Allow(c.UserContext(), "public:ip:"+g.clientIP(c), g.Limits.PublicPerIP); !d.Allowed {
			return tooMany(c, d)
		}
		c.Set(fiber.HeaderAccessControlAllowOrigin, "*")
		c.Set(fiber.HeaderCacheControl, "public, max-age=300")
		c.Set(fiber.HeaderETag, etag)
		if httpserver.ETagMatches(c.Get(fiber.HeaderIfNoneMatch), etag) {
			return c.SendStatus(fiber.StatusNotModified)
		}
		c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
		return c.Send(doc)
	}
}

// webhook routes Stripe's webhook to checkout without keys: checkout verifies Stripe's
// signature over the untouched body.
func (g *Gateway) webhook(checkout *proxy.Upstream) fiber.Handler {
	p := identity.Principal{KeyID: "stripe-webhook", KeyType: identity.Service}
	return func(c *fiber.Ctx) error {
		ip := g.clientIP(c)
		if d := g.Limiter.Allow(c.UserContext(), "webhook:ip:"+ip, g.Limits.WebhookPerIP); !d.Allowed {
			return tooMany(c, d)
		}
		return g.forward(c, checkout, p, ip, proxy.Forward{Headers: []string{"Stripe-Signature"}})
	}
}

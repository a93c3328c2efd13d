package edge

import (
	"crypto/sha256"
	"encoding/hex"

	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/apispec"
	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/gateway/internal/admission"
	"github.com/podiumhq/podium/services/gateway/internal/proxy"
)

// document serves an OpenAPI document (the 3.1 document or its 3.0 rendition), cacheable and
// readable from any page.
func (g *Gateway) document(doc []byte) fiber.Handler {
	sum := sha256.Sum256(doc)
	etag := `"` + hex.EncodeToString(sum[:16]) + `"`
	return func(c *fiber.Ctx) error {
		if err := g.allowAddress(c, "public", g.clientIP(c), g.Limits.PublicPerIP); err != nil {
			return err
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

// WebhookMaxBody is the largest Stripe webhook delivery accepted: four times the 64 KiB bound
// of Stripe's own Go handler example, for Checkout Session events carrying full metadata (up
// to 50 keys of 500 characters) and custom fields.
const WebhookMaxBody = 256 << 10

// BodyLimit is the largest body any route accepts, the server's own bound: every larger body
// is refused while it is read, before any route runs.
func BodyLimit() int { return max(apispec.MaxBodyBytes(), WebhookMaxBody) }

// webhook routes Stripe's webhook to checkout without keys: checkout verifies Stripe's
// signature over the untouched body.
func (g *Gateway) webhook(checkout *proxy.Upstream) fiber.Handler {
	p := identity.Principal{KeyID: "stripe-webhook", KeyType: identity.Service}
	tooLarge := maxBody(WebhookMaxBody, "the Stripe webhook")
	return func(c *fiber.Ctx) error {
		if err := tooLarge(c); err != nil {
			return err
		}
		ip := g.clientIP(c)
		if err := g.allowAddress(c, "webhook", ip, g.Limits.WebhookPerIP); err != nil {
			return err
		}
		place, err := g.admit(c, checkout, admission.Payments)
		if err != nil {
			return err
		}
		return g.forward(c, checkout, place, p, ip, proxy.Forward{Headers: []string{"Stripe-Signature"}})
	}
}

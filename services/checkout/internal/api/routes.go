// Package api serves checkout's routes: the browser's summary and session under
// /external/v1 (reached through the gateway with a publishable key's identity) and the
// Stripe webhook (routed by the gateway without keys, with a service identity). Handlers are
// thin: they parse, call the use cases and map their results.
package api

import (
	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/checkout/internal/app"
)

// Register adds the service's routes; every one requires the gateway's identity token.
func Register(a *fiber.App, svc *app.Service, v *identity.Verifier) {
	h := handlers{svc: svc}
	gateway := identity.Middleware(v, identity.Callers(identity.Gateway))
	browser := a.Group("/external/v1/browser/checkout/registration", gateway, identity.RequireType(identity.Publishable))
	browser.Post("/summary", h.summary)
	browser.Post("/session", h.session)
	a.Post("/webhooks/stripe", gateway, identity.RequireType(identity.Service), h.stripeWebhook)
}

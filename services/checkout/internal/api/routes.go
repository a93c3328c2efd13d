// Package api serves checkout's routes: the browser's summary and session under
// /external/v1 (reached through the gateway with a publishable key's identity), the test
// outcomes of test sessions (a test secret key's), the organizers' refunds (a secret key's with
// refunds:write), the Stripe webhook (routed by the gateway
// without keys, with a service identity) and registration's wipe of an organizer's test data. Handlers are
// thin: they parse, call the use cases and map their results.
package api

import (
	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/checkout/internal/app"
)

// Register adds the service's routes; every one requires the gateway's identity token, but
// the wipe of test data, which requires registration's.
func Register(a *fiber.App, svc *app.Service, v *identity.Verifier) {
	h := handlers{svc: svc}
	gateway := identity.Middleware(v, identity.Callers(identity.Gateway))
	browser := a.Group("/external/v1/browser/checkout/registration", gateway, identity.RequireType(identity.Publishable))
	browser.Post("/summary", h.summary)
	browser.Post("/session", h.session)
	a.Post("/webhooks/stripe", gateway, identity.RequireType(identity.Service), h.stripeWebhook)
	tests := a.Group("/external/v1/organizer/test/checkout-sessions/:sessionId", gateway, identity.RequireType(identity.Secret),
		identity.RequireOrganizer, identity.RequireScope(scopeWrite), requireTestKey)
	tests.Post("/complete", h.testOutcome(app.TestComplete))
	tests.Post("/fail", h.testOutcome(app.TestFail))
	tests.Post("/expire", h.testOutcome(app.TestExpire))
	refunds := a.Group("/external/v1/organizer/refunds", gateway, identity.RequireType(identity.Secret), identity.RequireOrganizer,
		identity.RequireScope(scopeRefunds))
	refunds.Post("", h.createRefund)
	refunds.Get("", h.listRefunds)
	refunds.Get("/:refundId", h.getRefund)
	// Registration wipes an organizer's test data with the caller's principal (test mode).
	internal := a.Group("/internal/organizers/:organizerId", identity.Middleware(v, identity.Callers(identity.Registration)),
		identity.RequireOrganizer, requireTestKey)
	internal.Delete("/test-data", h.deleteTestData)
}

// scopeWrite is the scope the test outcomes need.
const scopeWrite = "registrations:write"

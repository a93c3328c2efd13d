// Package http serves the registration routes of the external API (reached only through the
// gateway, which forwards the unchanged path with the identity token) and the internal hold
// API that checkout calls.
package http

import (
	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/apispec"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/registration/internal/app"
)

// Scopes of the organizer routes.
const (
	scopeRead  = "registrations:read"
	scopeWrite = "registrations:write"
)

// Deps are what the handlers need.
type Deps struct {
	Service  *app.Service
	Verifier *identity.Verifier
	// Validator checks request bodies against the OpenAPI document, as the gateway does, so a
	// body that bypassed the gateway is refused the same way.
	Validator *apispec.Validator
}

// Register adds the routes; every one requires the gateway's identity token.
func Register(app *fiber.App, d Deps) {
	h := handlers{svc: d.Service, v: d.Validator}
	ext := app.Group("/external/v1", identity.Middleware(d.Verifier), forwardCaller)
	org := ext.Group("/organizer/registrations", identity.RequireType(identity.Secret))
	org.Post("", identity.RequireScope(scopeWrite), h.create)
	org.Post("/search", identity.RequireScope(scopeRead), h.search)
	org.Patch("/:ticketId", identity.RequireScope(scopeWrite), h.update)
	org.Delete("/:ticketId", identity.RequireScope(scopeWrite), h.remove)
	browser := ext.Group("/browser/events/:eventId/registration-receipts", identity.RequireType(identity.Publishable))
	browser.Post("/lookup", h.lookupReceipts)
	browser.Post("/send", h.sendReceipts)

	internal := app.Group("/internal", identity.Middleware(d.Verifier), forwardCaller)
	internal.Post("/holds", h.createHold)
	internal.Post("/holds/:orderId/confirm", h.confirmHold)
	internal.Post("/holds/:orderId/release", h.releaseHold)
}

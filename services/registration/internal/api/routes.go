// Package api serves the registration routes of the external API (reached only through the
// gateway, which forwards the unchanged path with its identity token) and the internal hold
// API that only checkout calls, for the organizer its token names.
package api

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

// Register adds the routes; every one requires an identity token from the caller it serves.
func Register(app *fiber.App, d Deps) {
	h := handlers{svc: d.Service, v: d.Validator}
	ext := app.Group("/external/v1", identity.Middleware(d.Verifier, identity.Callers(identity.Gateway)))
	org := ext.Group("/organizer/registrations", identity.RequireType(identity.Secret))
	org.Post("", identity.RequireScope(scopeWrite), h.create)
	org.Post("/search", identity.RequireScope(scopeRead), h.search)
	org.Patch("/:ticketId", identity.RequireScope(scopeWrite), h.update)
	org.Delete("/:ticketId", identity.RequireScope(scopeWrite), h.remove)
	checkIns := ext.Group("/organizer/check-ins", identity.RequireType(identity.Secret), identity.RequireScope(scopeCheckIns))
	checkIns.Post("", h.checkIn)
	checkIns.Post("/batch", h.checkInBatch)
	checkIns.Delete("/:checkInId", h.undoCheckIn)
	org.Post("/:ticketId/transfer", identity.RequireScope(scopeWrite), h.transfer)
	org.Post("/:ticketId/waivers", identity.RequireScope(scopeWrite), h.signWaivers)
	// Test mode: the owner refuses a live key too (the gateway refuses it first).
	ext.Get("/organizer/test/mail", identity.RequireType(identity.Secret), identity.RequireOrganizer, requireTest,
		identity.RequireScope(scopeRead), h.listTestMail)
	ext.Delete("/organizer/test-data", identity.RequireType(identity.Secret), identity.RequireOrganizer, requireTest,
		identity.RequireScope(scopeWrite), h.deleteTestData)
	browser := ext.Group("/browser/events/:eventId/registration-receipts", identity.RequireType(identity.Publishable))
	browser.Post("/lookup", h.lookupReceipts)
	browser.Post("/send", h.sendReceipts)

	// The waitlist of sold-out categories (docs/adr/0026-waitlist.md).
	ext.Post("/browser/events/:eventId/waitlist", identity.RequireType(identity.Publishable), h.joinWaitlist)
	secret := identity.RequireType(identity.Secret)
	ext.Get("/organizer/categories/:categoryId/waitlist", secret, identity.RequireScope(scopeRead), h.listWaitlist)
	ext.Post("/organizer/categories/:categoryId/waitlist/close", secret, identity.RequireScope(scopeWrite), h.closeWaitlist)
	ext.Post("/organizer/waitlist/:entryId/offer", secret, identity.RequireScope(scopeWrite), h.offerWaitlistEntry)

	// Every hold lookup is scoped by the token's organizer, so one must be named.
	holds := app.Group("/internal/holds", identity.Middleware(d.Verifier, identity.Callers(identity.Checkout)),
		identity.RequireOrganizer)
	holds.Post("", h.createHold)
	holds.Post("/release", h.releaseHoldByID)
	holds.Post("/:orderId/release", h.releaseHold)

	// The console (through auth) reads and wipes an organizer's test data, whatever the mode of
	// its session: these routes reach test data only.
	console := app.Group("/internal/organizers/:organizerId", identity.Middleware(d.Verifier, identity.Callers(identity.Auth)),
		identity.RequireType(identity.Service), identity.RequireOrganizer, sameOrganizer)
	console.Get("/test/mail", h.listTestMail)
	console.Delete("/test-data", h.deleteTestData)
}

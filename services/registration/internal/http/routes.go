// Package http serves the registration routes of the external API, reached only through the gateway.
package http

import (
	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/libs/identity"
)

// Register adds the service's routes; every one requires the gateway's identity token.
func Register(app *fiber.App, v *identity.Verifier) {
	ext := app.Group("/external/v1", identity.Middleware(v))
	ext.Post("/organizer/registrations", unavailable)
	ext.Post("/organizer/registrations/search", unavailable)
	ext.Patch("/organizer/registrations/:ticketId", unavailable)
	ext.Delete("/organizer/registrations/:ticketId", unavailable)
	ext.Post("/browser/events/:eventId/registration-receipts/lookup", unavailable)
	ext.Post("/browser/events/:eventId/registration-receipts/send", unavailable)
}

// unavailable answers routes whose capability has not been released yet.
func unavailable(c *fiber.Ctx) error {
	return httpserver.NewError(fiber.StatusNotImplemented, "this endpoint is not available yet")
}

// Package http serves the catalog routes of the external API, reached only through the gateway.
package http

import (
	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/libs/identity"
)

// Register adds the service's routes; every one requires the gateway's identity token.
func Register(app *fiber.App, v *identity.Verifier) {
	ext := app.Group("/external/v1", identity.Middleware(v))
	ext.Post("/organizer/events/search", unavailable)
	ext.Get("/organizer/events/:eventId", unavailable)
	ext.Get("/organizer/events/:eventId/pricing-cards", unavailable)
	ext.Post("/browser/events/search", unavailable)
	ext.Get("/browser/events/:eventId", unavailable)
	ext.Get("/browser/events/:eventId/pricing-cards", unavailable)
}

// unavailable answers routes whose capability has not been released yet.
func unavailable(c *fiber.Ctx) error {
	return httpserver.NewError(fiber.StatusNotImplemented, "this endpoint is not available yet")
}

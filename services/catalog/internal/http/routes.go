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
	org := ext.Group("/organizer", identity.RequireType(identity.Secret))
	org.Post("/events/search", identity.RequireScope("events:read"), searchEvents)
	org.Get("/events/:eventId", identity.RequireScope("events:read"), eventNotFound)
	org.Get("/events/:eventId/pricing-cards", identity.RequireScope("pricing:read"), eventNotFound)
	pub := ext.Group("/browser", identity.RequireType(identity.Publishable))
	pub.Post("/events/search", searchEvents)
	pub.Get("/events/:eventId", eventNotFound)
	pub.Get("/events/:eventId/pricing-cards", eventNotFound)
}

type searchBody struct {
	Limit  *int `json:"limit"`
	Offset int  `json:"offset"`
}

// searchEvents answers with the organizer's events; the catalog holds none yet.
func searchEvents(c *fiber.Ctx) error {
	var b searchBody
	if err := httpserver.DecodeJSON(c, &b); err != nil {
		return err
	}
	limit := 50
	if b.Limit != nil {
		limit = *b.Limit
	}
	return c.Status(fiber.StatusCreated).JSON(fiber.Map{"data": []any{}, "total": 0, "limit": limit, "offset": b.Offset})
}

func eventNotFound(c *fiber.Ctx) error {
	return httpserver.NotFound("event " + c.Params("eventId") + " not found")
}

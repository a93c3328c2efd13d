package edge

import (
	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/services/gateway/internal/docs"
)

// registerReference serves the API reference page and its script without a key, limited per
// client address as the OpenAPI document is.
func (g *Gateway) registerReference(app *fiber.App) error {
	routes, err := docs.Routes(BasePath+"/docs", BasePath+"/openapi.json")
	if err != nil {
		return err
	}
	for _, r := range routes {
		app.Get(r.Path, g.public(r.Handler))
	}
	return nil
}

// public limits h per client address in the bucket of the routes without a key.
func (g *Gateway) public(h fiber.Handler) fiber.Handler {
	return func(c *fiber.Ctx) error {
		if err := g.allowAddress(c, "public", g.clientIP(c), g.Limits.PublicPerIP); err != nil {
			return err
		}
		return h(c)
	}
}

package api

import (
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/registration/internal/adapters/catalog"
)

// forwardCaller puts the verified principal and the request id in the request context, for
// calls to the catalog made on this request's behalf (trace context travels in the context
// already).
func forwardCaller(c *fiber.Ctx) error {
	ctx := catalog.WithCaller(c.UserContext(), catalog.Caller{
		Principal: identity.From(c), RequestID: httpserver.RequestID(c),
	})
	c.SetUserContext(ctx)
	return c.Next()
}

// param returns a copy of the named path parameter.
func param(c *fiber.Ctx, name string) string { return strings.Clone(c.Params(name)) }

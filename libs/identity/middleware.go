package identity

import (
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/httpserver"
)

const principalLocal = "identity.principal"

// Middleware refuses, with 401, any request without a valid token and makes the principal
// available through From and the token, for calls to peers on the caller's behalf, through
// Token.
func Middleware(v *Verifier) fiber.Handler {
	return func(c *fiber.Ctx) error {
		tok := c.Get(Header)
		if tok == "" {
			return httpserver.Unauthorized("this service is reached through the gateway only")
		}
		p, err := v.Verify(tok)
		if err != nil {
			return httpserver.Unauthorized("the internal identity token is invalid or expired")
		}
		c.Locals(principalLocal, p)
		return c.Next()
	}
}

// From returns the principal Middleware verified.
func From(c *fiber.Ctx) Principal {
	p, _ := c.Locals(principalLocal).(Principal)
	return p
}

// Token returns a copy of the token Middleware verified (Fiber reuses the header's buffer once
// the handler returns), for calls to peers on the caller's behalf.
func Token(c *fiber.Ctx) string { return strings.Clone(c.Get(Header)) }

// ClientIP returns the client address the gateway determined.
func ClientIP(c *fiber.Ctx) string { return c.Get(HeaderClientIP) }

// RequireType refuses, with 403, principals of another key type.
func RequireType(t KeyType) fiber.Handler {
	return func(c *fiber.Ctx) error {
		if From(c).KeyType != t {
			return httpserver.Forbidden("this route does not accept " + string(From(c).KeyType) + " credentials")
		}
		return c.Next()
	}
}

// RequireScope refuses, with 403, principals without scope.
func RequireScope(scope string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		if !From(c).HasScope(scope) {
			return httpserver.Forbidden("the API key lacks the " + scope + " scope")
		}
		return c.Next()
	}
}

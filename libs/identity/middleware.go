package identity

import (
	"slices"

	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/httpserver"
)

const verifiedLocal = "identity.verified"

// Allowed names the services a route group accepts calls from.
type Allowed []string

// Callers returns the services a route group accepts calls from, by their issuer names.
func Callers(issuers ...string) Allowed { return Allowed(issuers) }

// Middleware refuses, with 401, any request without a valid token for v's service and, with
// 403, a valid token from a service that callers does not name; it makes the principal
// available through From and the calling service through Caller.
func Middleware(v *Verifier, callers Allowed) fiber.Handler {
	return func(c *fiber.Ctx) error {
		tok := c.Get(Header)
		if tok == "" {
			return httpserver.Unauthorized(httpserver.CodeUnauthorized, "this service is reached through the gateway only")
		}
		ver, err := v.Verify(tok)
		if err != nil {
			return httpserver.Unauthorized(httpserver.CodeUnauthorized, "the internal identity token is invalid or expired")
		}
		if !slices.Contains(callers, ver.Issuer) {
			return httpserver.Forbidden(httpserver.CodeForbidden, "this route does not accept calls from "+ver.Issuer)
		}
		c.Locals(verifiedLocal, ver)
		return c.Next()
	}
}

// From returns the principal Middleware verified.
func From(c *fiber.Ctx) Principal {
	v, _ := c.Locals(verifiedLocal).(Verified)
	return v.Principal
}

// Caller returns the service that sent the request Middleware verified.
func Caller(c *fiber.Ctx) string {
	v, _ := c.Locals(verifiedLocal).(Verified)
	return v.Issuer
}

// ClientIP returns the client address the gateway determined.
func ClientIP(c *fiber.Ctx) string { return c.Get(HeaderClientIP) }

// RequireType refuses, with 403, principals of another key type.
func RequireType(t KeyType) fiber.Handler {
	return func(c *fiber.Ctx) error {
		if From(c).KeyType != t {
			return httpserver.Forbidden(httpserver.CodeForbidden, "this route does not accept "+string(From(c).KeyType)+" credentials")
		}
		return c.Next()
	}
}

// RequireOrganizer refuses, with 403, principals that name no organizer: routes that scope
// every lookup by the caller's organizer must never see an empty one, which would match none
// or, worse, any.
func RequireOrganizer(c *fiber.Ctx) error {
	if From(c).OrganizerID == "" {
		return httpserver.Forbidden(httpserver.CodeForbidden, "this route needs an identity that names an organizer")
	}
	return c.Next()
}

// RequireScope refuses, with 403, principals without scope.
func RequireScope(scope string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		if !From(c).HasScope(scope) {
			return httpserver.Forbidden(httpserver.CodeForbidden, "the API key lacks the "+scope+" scope")
		}
		return c.Next()
	}
}

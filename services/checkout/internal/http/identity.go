package http

import (
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/libs/identity"
)

// principalKey stores the verified principal in the request's locals.
type principalKey struct{}

// authenticate verifies the gateway's identity token as identity.Middleware does, with the
// same answers, and admits only principals of the given key type (403 otherwise).
//
// It verifies a copy of the header: Fiber's c.Get returns a view of a buffer that later
// requests reuse, and identity.Verifier remembers tokens by their string, so a cached view
// would later read as another request's token and hand it this request's principal.
func authenticate(v *identity.Verifier, typ identity.KeyType) fiber.Handler {
	return func(c *fiber.Ctx) error {
		tok := strings.Clone(c.Get(identity.Header))
		if tok == "" {
			return httpserver.Unauthorized("this service is reached through the gateway only")
		}
		p, err := v.Verify(tok)
		if err != nil {
			return httpserver.Unauthorized("the internal identity token is invalid or expired")
		}
		if p.KeyType != typ {
			return httpserver.Forbidden("this route does not accept " + string(p.KeyType) + " credentials")
		}
		c.Locals(principalKey{}, p)
		c.Locals(tokenKey{}, tok)
		return c.Next()
	}
}

// tokenKey stores the (copied) identity token, forwarded to peers.
type tokenKey struct{}

// principal returns the principal authenticate verified.
func principal(c *fiber.Ctx) identity.Principal {
	p, _ := c.Locals(principalKey{}).(identity.Principal)
	return p
}

// token returns the identity token authenticate verified.
func token(c *fiber.Ctx) string {
	t, _ := c.Locals(tokenKey{}).(string)
	return t
}

package edge

import (
	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/apikey"
	"github.com/podiumhq/podium/libs/apispec"
	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/gateway/internal/proxy"
)

// organizer serves an operation of the organizer surface: a body within the operation's size,
// a secret key (a test key on a test-only operation) with the operation's scope, the per-key
// limit of the key's mode, room at the owner (see admission), a valid body.
func (g *Gateway) organizer(op apispec.Operation, owner *proxy.Upstream) fiber.Handler {
	missingScope := httpserver.Forbidden(codeScopeMissing, "this API key lacks the "+op.Scope+" scope")
	tooLarge := bodyTooLarge(op)
	prio := priorities[op.ID]
	return func(c *fiber.Ctx) error {
		if err := tooLarge(c); err != nil {
			return err
		}
		raw, err := secretKeyFrom(c)
		if err != nil {
			return err
		}
		parsed, err := parse(raw)
		if err != nil {
			return err
		}
		if parsed.typ != apikey.Secret {
			return errPublishableOnServer
		}
		ip := g.clientIP(c)
		key, err := g.resolve(c, parsed, ip)
		if err != nil {
			return err
		}
		if op.TestOnly && parsed.mode != apikey.Test {
			return errTestKeyRequired
		}
		if op.Scope != "" && !hasScope(key.Scopes, op.Scope) {
			return missingScope
		}
		if err := g.shed(c, owner, prio); err != nil {
			return err
		}
		if err := g.limit(c, op, key.ID, ip, parsed.mode); err != nil {
			return err
		}
		place, err := g.admit(c, owner, prio)
		if err != nil {
			return err
		}
		if err := g.checkBody(c, op, "", nil); err != nil {
			release(place)
			return err
		}
		return g.forward(c, owner, place, identity.Principal{
			OrganizerID: key.OrganizerID, KeyID: key.ID, KeyType: identity.Secret, Scopes: key.Scopes,
			Test: parsed.mode == apikey.Test,
		}, ip, proxy.Forward{Headers: passedHeaders[op.ID]})
	}
}

// passedHeaders are the client headers an organizer operation passes on to its owner beyond
// the ones every request does.
var passedHeaders = map[string][]string{
	"organizerCreateRefund": {"Idempotency-Key"},
}

func hasScope(scopes []string, want string) bool {
	for _, s := range scopes {
		if s == want {
			return true
		}
	}
	return false
}

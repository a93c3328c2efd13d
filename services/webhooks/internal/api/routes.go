// Package api serves the webhook endpoints API: the organizer routes of the external API
// (reached only through the gateway, secret keys with the webhooks:write scope) and the same
// handlers for the console under /internal/v1/webhook-endpoints (tokens auth signs for the
// console member's organization). Every lookup is scoped by the token's organizer, so another
// organization's ids answer 404.
package api

import (
	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/apispec"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/webhooks/internal/app"
)

// ScopeWrite is the scope of every external route.
const ScopeWrite = "webhooks:write"

// Paths of the two mounts of the handlers.
const (
	ExternalBase = "/external/v1/organizer/webhook-endpoints"
	InternalBase = "/internal/v1/webhook-endpoints"
	// TestDataPath is the wipe of an organizer's test data, which registration calls.
	TestDataPath = "/internal/organizers/:organizerId/test-data"
)

// Deps are what the handlers need.
type Deps struct {
	Service  *app.Service
	Verifier *identity.Verifier
	// Validator checks request bodies against the OpenAPI document, as the gateway does, on
	// both mounts.
	Validator *apispec.Validator
}

// Register adds the routes; every one requires an identity token from the caller it serves.
func Register(a *fiber.App, d Deps) {
	h := handlers{svc: d.Service, v: d.Validator}
	h.mount(a.Group(ExternalBase, identity.Middleware(d.Verifier, identity.Callers(identity.Gateway)),
		identity.RequireType(identity.Secret), identity.RequireOrganizer, identity.RequireScope(ScopeWrite)))
	h.mount(a.Group(InternalBase, identity.Middleware(d.Verifier, identity.Callers(identity.Auth)),
		identity.RequireType(identity.Service), identity.RequireOrganizer))
	// Registration's wipe of an organizer's test data, on behalf of a test key's principal.
	a.Delete(TestDataPath, identity.Middleware(d.Verifier, identity.Callers(identity.Registration)),
		identity.RequireOrganizer, h.deleteTestData)
}

func (h handlers) mount(r fiber.Router) {
	r.Post("", h.create)
	r.Get("", h.list)
	r.Get("/:endpointId", h.get)
	r.Patch("/:endpointId", h.update)
	r.Delete("/:endpointId", h.remove)
	r.Post("/:endpointId/rotate-secret", h.rotate)
	r.Post("/:endpointId/test", h.test)
	r.Post("/:endpointId/recover", h.recover)
	r.Get("/:endpointId/deliveries", h.deliveries)
	r.Get("/:endpointId/deliveries/:deliveryId", h.delivery)
	r.Post("/:endpointId/deliveries/:deliveryId/retry", h.retry)
}

// owner is whose endpoints the request reaches: the token's organizer, in the mode of its key
// (a test key's endpoints are test endpoints, as are the console's in its test mode).
func owner(c *fiber.Ctx) app.Owner {
	p := identity.From(c)
	return app.Owner{OrganizerID: p.OrganizerID, Livemode: p.Livemode()}
}

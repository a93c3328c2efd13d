// Package api serves the catalog's HTTP API: the external API's catalog operations on the
// organizer and browser surfaces (reached through the gateway, with its identity token), the
// internal API for registration and checkout, and the operators' admin API, guarded by the
// operator token.
package api

import (
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/admin"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/catalog/internal/app"
	"github.com/podiumhq/podium/services/catalog/internal/cache"
)

// Scopes of the organizer operations.
const (
	scopeEvents  = "events:read"
	scopePricing = "pricing:read"
)

// Deps are what the handlers need.
type Deps struct {
	Service *app.Service
	// Cache holds rendered answers of the reads.
	Cache *cache.Cache
	// Verifier checks the internal identity tokens sent to the catalog.
	Verifier *identity.Verifier
	// OperatorToken guards the admin API.
	OperatorToken string
	// CacheTTL bounds how long a cached search or detail is served (changes invalidate it
	// sooner); PricingTTL how long cached pricing cards are (places change in other instances).
	CacheTTL   time.Duration
	PricingTTL time.Duration
	// EdgeTTL is how long the gateway may keep a public answer; zero: not at all.
	EdgeTTL time.Duration
}

// Register adds the external, internal and admin routes to router.
func Register(router fiber.Router, d Deps) {
	h := &handlers{svc: d.Service, cache: d.Cache, ttl: d.CacheTTL, pricingTTL: d.PricingTTL, edgeTTL: d.EdgeTTL}

	ext := router.Group("/external/v1", noStoreOnError, identity.Middleware(d.Verifier, identity.Callers(identity.Gateway)))
	org := ext.Group("/organizer", identity.RequireType(identity.Secret))
	org.Post("/events/search", identity.RequireScope(scopeEvents), h.organizerSearch)
	org.Get("/events/:eventId", identity.RequireScope(scopeEvents), h.organizerEvent)
	org.Get("/events/:eventId/pricing-cards", identity.RequireScope(scopePricing), h.organizerPricing)
	pub := ext.Group("/browser", identity.RequireType(identity.Publishable))
	pub.Post("/events/search", h.browserSearch)
	pub.Get("/events/:eventId", h.browserEvent)
	pub.Get("/events/:eventId/pricing-cards", h.browserPricing)

	// Checkout prices purchases and registration checks registrations, each for the organizer
	// of the key its request came with.
	internal := router.Group("/internal", noStoreOnError,
		identity.Middleware(d.Verifier, identity.Callers(identity.Checkout, identity.Registration)), identity.RequireOrganizer)
	internal.Get("/events/:eventId", h.internalEvent)
	internal.Get("/categories/:categoryId/event", h.internalEventOfCategory)

	operators := router.Group("/admin", admin.RequireOperator("catalog", d.OperatorToken))
	operators.Get("/import-schema.json", h.importSchema)
	operators.Get("/organizers/:organizerId/events", h.adminList)
	operators.Get("/organizers/:organizerId/events/:externalId", h.adminGet)
	operators.Put("/organizers/:organizerId/events/:externalId", h.adminImport)
}

// noStoreOnError keeps shared caches from storing refusals: a 404 for an unpublished event
// must not outlive its publication.
func noStoreOnError(c *fiber.Ctx) error {
	err := c.Next()
	if err != nil {
		c.Set(fiber.HeaderCacheControl, "no-store")
	}
	return err
}

// Package api serves the auth service's HTTP API: the operators' admin API under /admin,
// guarded by the operator token, and the internal API under /internal, guarded by the internal
// identity token of a service principal: the gateway's key and origin look-ups, and the
// webhooks service's look-up of an organization's contacts.
package api

import (
	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/admin"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/auth/internal/app"
)

// Deps are what the handlers need.
type Deps struct {
	Service *app.Service
	// Console issues operators' sign-in links.
	Console *app.Console
	// OperatorToken guards the admin API.
	OperatorToken string
	// Verifier checks the internal identity tokens sent to auth.
	Verifier *identity.Verifier
}

// Register adds the admin and internal routes to router.
func Register(router fiber.Router, d Deps) {
	h := handlers{svc: d.Service}

	operators := router.Group("/admin", admin.RequireOperator("auth", d.OperatorToken))
	operators.Post("/organizers", h.createOrganizer)
	operators.Get("/organizers", h.listOrganizers)
	operators.Get("/organizers/:organizerId", h.getOrganizer)
	operators.Post("/organizers/:organizerId/keys", h.createKey)
	operators.Get("/organizers/:organizerId/keys", h.listKeys)
	operators.Post("/keys/:keyId/revoke", h.revokeKey)
	operators.Post("/organizers/:organizerId/members", h.addMember)
	operators.Get("/organizers/:organizerId/members", h.listMembers)
	operators.Patch("/organizers/:organizerId/members/:memberId", h.changeMemberRole)
	operators.Delete("/organizers/:organizerId/members/:memberId", h.removeMember)
	operators.Get("/organizers/:organizerId/audit", h.auditLog)
	operators.Post("/sign-in-links", signInLink(d.Console))

	// Each route names its callers: a group's middleware would apply to every path under its
	// prefix, the other callers' routes included.
	gateway := []fiber.Handler{identity.Middleware(d.Verifier, identity.Callers(identity.Gateway)), identity.RequireType(identity.Service)}
	router.Post("/internal/keys/verify", append(gateway, h.verifyKey)...)
	router.Post("/internal/origins/check", append(gateway, h.checkOrigin)...)

	webhooks := []fiber.Handler{identity.Middleware(d.Verifier, identity.Callers(identity.Webhooks)), identity.RequireType(identity.Service), identity.RequireOrganizer}
	router.Get("/internal/v1/organizers/:organizerId/contacts", append(webhooks, h.contacts)...)
}

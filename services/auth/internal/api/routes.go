// Package api serves the auth service's HTTP API: the operators' admin API under /admin,
// guarded by the operator token, and the gateway's internal API under /internal, guarded by
// the internal identity token of a service principal.
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

	internal := router.Group("/internal", identity.Middleware(d.Verifier, identity.Callers(identity.Gateway)), identity.RequireType(identity.Service))
	internal.Post("/keys/verify", h.verifyKey)
	internal.Post("/origins/check", h.checkOrigin)
}

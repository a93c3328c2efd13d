// Package api serves the auth service's HTTP API: the operators' admin API under /admin,
// guarded by the operator token, and the gateway's internal API under /internal, guarded by
// the internal identity token of a service principal.
package api

import (
	"crypto/sha256"
	"crypto/subtle"
	"net/http"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/httpserver"
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

	admin := router.Group("/admin", operatorAuth(d.OperatorToken))
	admin.Post("/organizers", h.createOrganizer)
	admin.Get("/organizers", h.listOrganizers)
	admin.Get("/organizers/:organizerId", h.getOrganizer)
	admin.Post("/organizers/:organizerId/keys", h.createKey)
	admin.Get("/organizers/:organizerId/keys", h.listKeys)
	admin.Post("/keys/:keyId/revoke", h.revokeKey)
	admin.Post("/organizers/:organizerId/members", h.addMember)
	admin.Get("/organizers/:organizerId/members", h.listMembers)
	admin.Patch("/organizers/:organizerId/members/:memberId", h.changeMemberRole)
	admin.Delete("/organizers/:organizerId/members/:memberId", h.removeMember)
	admin.Get("/organizers/:organizerId/audit", h.auditLog)
	admin.Post("/sign-in-links", signInLink(d.Console))

	internal := router.Group("/internal", identity.Middleware(d.Verifier, identity.Callers(identity.Gateway)), identity.RequireType(identity.Service))
	internal.Post("/keys/verify", h.verifyKey)
	internal.Post("/origins/check", h.checkOrigin)
}

// operatorAuth refuses, with 401, requests without the operator token as a bearer token. The
// token and the candidate are compared as SHA-256 digests in constant time, so neither their
// content nor their length shows in the timing.
func operatorAuth(token string) fiber.Handler {
	want := sha256.Sum256([]byte(token))
	return func(c *fiber.Ctx) error {
		header := c.Get(fiber.HeaderAuthorization)
		if header == "" {
			return unauthorized("the admin API requires Authorization: Bearer <operator token>")
		}
		scheme, got, ok := strings.Cut(header, " ")
		if !ok || !strings.EqualFold(scheme, "Bearer") {
			return unauthorized("the Authorization header must be Bearer <operator token>")
		}
		sum := sha256.Sum256([]byte(strings.TrimSpace(got)))
		if subtle.ConstantTimeCompare(sum[:], want[:]) != 1 {
			return unauthorized("the operator token is invalid")
		}
		return c.Next()
	}
}

func unauthorized(msg string) *httpserver.Error {
	return &httpserver.Error{
		Status:  http.StatusUnauthorized,
		Message: msg,
		Headers: map[string]string{fiber.HeaderWWWAuthenticate: `Bearer realm="podium-auth-admin"`},
	}
}

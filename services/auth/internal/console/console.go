// Package console serves the organizers' console: a server-rendered web app, on auth's second
// listener, where members sign in with an e-mailed link and see, and by their role manage, their
// organization's API keys, webhook endpoints (kept by the webhooks service, which it calls),
// members and audit log.
//
// Every form carries a CSRF token derived from the browser's cookie (the session's once signed
// in, the browser binding's before), and every POST must come from the console's own origin.
// Every /orgs/{id} page first checks that the signed-in person is a member there: another
// organization's pages are not found.
package console

import (
	"net/http"
	"net/url"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/filesystem"

	"github.com/podiumhq/podium/libs/httpserver/clientip"
	"github.com/podiumhq/podium/services/auth/internal/app"
)

// Deps are what the console needs.
type Deps struct {
	Console *app.Console
	// ClientIP resolves the client's address behind the trusted proxies.
	ClientIP *clientip.Resolver
	// URL is the console's public origin, as browsers send it in Origin headers.
	URL string
	// LinkTTL is a sign-in link's lifetime, as the pages tell it.
	LinkTTL time.Duration
}

type handlers struct {
	Deps
	origin string
}

// Register adds the console's routes to router.
func Register(router fiber.Router, d Deps) {
	u, _ := url.Parse(d.URL)
	h := &handlers{Deps: d, origin: u.Scheme + "://" + u.Host}

	router.Use(securityHeaders)
	router.Use("/static", filesystem.New(filesystem.Config{Root: http.FS(staticFiles), PathPrefix: "static", MaxAge: 3600}))
	router.Use(consoleErrors, h.sameOrigin)

	router.Get("/signin", h.signInPage)
	router.Post("/signin", h.requestSignIn)
	router.Get("/signin/:token", h.confirmSignInPage)
	router.Post("/signin/:token", h.signIn)

	in := router.Group("", h.requireSession)
	in.Get("/", h.home)
	in.Post("/signout", h.signOut)
	in.Get("/sessions", h.sessions)
	in.Post("/sessions/:sessionId/revoke", h.revokeSession)

	org := in.Group("/orgs/:organizerId", h.requireMembership)
	org.Get("/api", h.apiTab)
	org.Post("/api/keys", h.createKey)
	org.Get("/api/keys/:keyId/revoke", h.confirmRevokePage)
	org.Post("/api/keys/:keyId/revoke", h.revokeKey)
	// The test-data tools wait on the registration service, as the Webhooks tab on its own.
	org.Post("/api/test-data/delete", releasePlace, h.deleteTestData)
	org.Get("/api/test-mail", releasePlace, h.testMail)
	hooks := org.Group("/webhooks", releasePlace)
	hooks.Get("", h.webhooksTab)
	hooks.Post("", h.createWebhookEndpoint)
	hooks.Get("/:endpointId", h.webhookEndpoint)
	hooks.Post("/:endpointId/enable", h.setWebhookEnabled(true))
	hooks.Post("/:endpointId/disable", h.setWebhookEnabled(false))
	hooks.Get("/:endpointId/delete", h.confirmDeleteWebhookPage)
	hooks.Post("/:endpointId/delete", h.deleteWebhookEndpoint)
	hooks.Post("/:endpointId/rotate-secret", h.rotateWebhookSecret)
	hooks.Post("/:endpointId/test", h.sendWebhookTest)
	hooks.Post("/:endpointId/recover", h.recoverWebhookDeliveries)
	hooks.Get("/:endpointId/deliveries/:deliveryId", h.webhookDelivery)
	hooks.Post("/:endpointId/deliveries/:deliveryId/retry", h.retryWebhookDelivery)
	org.Get("/members", h.members)
	org.Post("/members", h.inviteMember)
	org.Post("/members/:memberId/role", h.changeRole)
	org.Get("/members/:memberId/remove", h.confirmRemovePage)
	org.Post("/members/:memberId/remove", h.removeMember)
	org.Get("/audit", h.audit)
}

// contentSecurityPolicy allows the console's own styles, script and forms only: no inline
// script, no framing, no third-party anything.
const contentSecurityPolicy = "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; " +
	"connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

func securityHeaders(c *fiber.Ctx) error {
	c.Set(fiber.HeaderContentSecurityPolicy, contentSecurityPolicy)
	c.Set(fiber.HeaderXContentTypeOptions, "nosniff")
	// same-origin, not no-referrer: with no-referrer browsers send "Origin: null" on form posts.
	c.Set(fiber.HeaderReferrerPolicy, "same-origin")
	c.Set(fiber.HeaderXFrameOptions, "DENY")
	c.Set(fiber.HeaderCacheControl, "no-store")
	c.Set("Cross-Origin-Opener-Policy", "same-origin")
	return c.Next()
}

// clientAddress is the address of the browser behind the trusted proxies.
func (h *handlers) clientAddress(c *fiber.Ctx) string {
	return h.ClientIP.Resolve(c.Context().RemoteIP().String(), c.Get(fiber.HeaderXForwardedFor))
}

// visitor is the request as the console knows it before any database work, from the browser
// whose binding is browser.
func (h *handlers) visitor(c *fiber.Ctx, browser string) app.Visitor {
	return app.Visitor{Address: h.clientAddress(c), Browser: browser, Marker: c.Cookies(knownCookie)}
}

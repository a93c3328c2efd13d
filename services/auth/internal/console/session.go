package console

import (
	"crypto/subtle"
	"errors"
	"net/http"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/apikey"
	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/services/auth/internal/domain"
)

// The console's cookies: __Host- names are Secure, host-only and for the whole path, so no
// other site or subdomain can set them. The known-browser marker (app.Console.KnownBrowserMarker)
// lives as long as the binding it vouches for.
const (
	sessionCookie = "__Host-podium-session"
	browserCookie = "__Host-podium-browser"
	knownCookie   = "__Host-podium-known"
)

// Locals set by the middleware.
const (
	localSession    = "console.session"
	localCSRF       = "console.csrf"
	localMembership = "console.membership"
	localRelease    = "console.release"
)

// browserCookieMaxAge is how long a browser keeps its binding, in seconds: it ties sign-in
// links to the browser that asked for them, and tells a browser that signed in before. It is
// renewed whenever the browser signs in or its session's use is recorded.
const browserCookieMaxAge = int(domain.BrowserBindingTTL / time.Second)

// Failures the middleware answers.
var (
	errCrossOrigin = httpserver.Forbidden("cross_origin", "this form was not sent from the console's own pages")
	errCSRF        = httpserver.Forbidden("csrf_invalid", "this form has expired or did not come from the console; reload the page and try again")
	errSignedOut   = httpserver.Unauthorized("session_invalid", "your session has ended; sign in again")
)

// rememberBrowser gives the browser, whose binding is browser, its binding and a marker that it
// signed in as email for as long as the console remembers it.
func (h *handlers) rememberBrowser(c *fiber.Ctx, browser, email string) {
	setCookie(c, browserCookie, browser, browserCookieMaxAge)
	setCookie(c, knownCookie, h.Console.KnownBrowserMarker(browser, email), browserCookieMaxAge)
}

func setCookie(c *fiber.Ctx, name, value string, maxAge int) {
	c.Cookie(&fiber.Cookie{
		Name: name, Value: value, Path: "/", MaxAge: maxAge,
		Secure: true, HTTPOnly: true, SameSite: fiber.CookieSameSiteLaxMode,
	})
}

func clearCookie(c *fiber.Ctx, name string) { setCookie(c, name, "", -1) }

// sameOrigin refuses a state-changing request whose Origin, or Sec-Fetch-Site, says it came
// from another site; the CSRF token is checked as well.
func (h *handlers) sameOrigin(c *fiber.Ctx) error {
	if c.Method() == http.MethodGet || c.Method() == http.MethodHead {
		return c.Next()
	}
	if o := c.Get(fiber.HeaderOrigin); o != "" && o != h.origin {
		return errCrossOrigin
	}
	if s := c.Get("Sec-Fetch-Site"); s != "" && s != "same-origin" && s != "none" {
		return errCrossOrigin
	}
	return c.Next()
}

// checkCSRF compares the form's token with the one derived from the cookie value token, in
// constant time.
func checkCSRF(c *fiber.Ctx, token string) error {
	want := domain.CSRFToken(token)
	if token == "" || subtle.ConstantTimeCompare([]byte(c.FormValue("csrf")), []byte(want)) != 1 {
		return errCSRF
	}
	return nil
}

// requireSession loads the session of the cookie, sending a browser without one to sign in,
// and checks the CSRF token of every POST. A cookie that can be a session's takes one of the
// console's places (app.Console.Hold) before the lookup and keeps it for the whole request.
func (h *handlers) requireSession(c *fiber.Ctx) error {
	token := c.Cookies(sessionCookie)
	s, err := domain.Session{}, domain.ErrSessionInvalid
	if len(token) == domain.TokenLen {
		release, held := h.Console.Hold(c.UserContext())
		if held != nil {
			return held
		}
		defer release()
		c.Locals(localRelease, release)
		browser := browserBinding(c)
		var renewBinding bool
		s, renewBinding, err = h.Console.Session(c.UserContext(), token, browser, h.clientAddress(c))
		if renewBinding {
			h.rememberBrowser(c, browser, s.Email)
		}
	}
	if errors.Is(err, domain.ErrSessionInvalid) {
		if token != "" {
			clearCookie(c, sessionCookie)
		}
		if c.Method() == http.MethodGet {
			return c.Redirect("/signin", http.StatusSeeOther)
		}
		return errSignedOut
	}
	if err != nil {
		return err
	}
	if c.Method() == http.MethodPost {
		if err := checkCSRF(c, token); err != nil {
			return err
		}
	}
	c.Locals(localSession, s)
	c.Locals(localCSRF, domain.CSRFToken(token))
	return c.Next()
}

func session(c *fiber.Ctx) domain.Session {
	s, _ := c.Locals(localSession).(domain.Session)
	return s
}

// requireMembership loads the signed-in person's membership of the organization in the path;
// an organization they do not belong to is not found.
func (h *handlers) requireMembership(c *fiber.Ctx) error {
	m, err := h.Console.Membership(c.UserContext(), session(c).Email, c.Params("organizerId"))
	if err != nil {
		return err
	}
	c.Locals(localMembership, m)
	return c.Next()
}

// releasePlace gives back the console's place the session's lookup took, for pages whose
// remaining work waits on another service rather than the database: each of their database
// checks then takes a place of its own (app.Console's webhooks use cases).
func releasePlace(c *fiber.Ctx) error {
	if release, ok := c.Locals(localRelease).(func()); ok {
		release()
	}
	return c.Next()
}

func membership(c *fiber.Ctx) domain.Membership {
	m, _ := c.Locals(localMembership).(domain.Membership)
	return m
}

// page returns the view of a signed-in page; tab names the organization's tab, if any.
func page(c *fiber.Ctx, title, tab string, data any) view {
	v := view{Title: title, Email: session(c).Email, Data: data}
	v.CSRF, _ = c.Locals(localCSRF).(string)
	if m, ok := c.Locals(localMembership).(domain.Membership); ok {
		v.Org = &orgView{ID: m.OrganizerID, Name: m.OrganizerName, Role: string(m.Role), CanManage: domain.CanManage(m.Role), Tab: tab}
		v.Org.Test = v.Org.HasModes() && modeOf(c) == apikey.Test
	}
	return v
}

// actor is the signed-in member as the audit log records them.
func (h *handlers) actor(c *fiber.Ctx) domain.Actor {
	return domain.Actor{Email: session(c).Email, Address: h.clientAddress(c)}
}

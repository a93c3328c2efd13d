package console

import (
	"errors"
	"net/http"

	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/services/auth/internal/domain"
)

var (
	errOtherBrowser = httpserver.Forbidden("signin_link_other_browser",
		"this sign-in link was asked for in another browser: open it there, or ask for a new link here")
	errLinkInvalid = &httpserver.Error{Status: http.StatusGone, Code: "signin_link_invalid",
		Message: "this sign-in link was already used or has expired: ask for a new one"}
	errNoMembership = httpserver.Forbidden("no_membership", "this e-mail address is not a member of any organization")
)

// browserToken returns the browser's binding, giving the browser one if it has none.
func browserToken(c *fiber.Ctx) string {
	token := browserBinding(c)
	if token == "" {
		token = domain.NewToken()
		setCookie(c, browserCookie, token, browserCookieMaxAge)
	}
	return token
}

// browserBinding returns the browser's binding, or "" when its cookie holds none (no value, or
// one of another length than the console's tokens).
func browserBinding(c *fiber.Ctx) string {
	token := c.Cookies(browserCookie)
	if len(token) != domain.TokenLen {
		return ""
	}
	return token
}

type signInData struct {
	Email    string
	Problems []string
	TTL      string
}

func (h *handlers) signInPage(c *fiber.Ctx) error {
	return render(c, http.StatusOK, "signin", view{Title: "Sign in", CSRF: domain.CSRFToken(browserToken(c)), Data: signInData{}})
}

func (h *handlers) requestSignIn(c *fiber.Ctx) error {
	token := browserBinding(c)
	if err := checkCSRF(c, token); err != nil {
		return err
	}
	email := c.FormValue("email")
	err := h.Console.RequestSignIn(c.UserContext(), email, h.visitor(c, token))
	if fault.KindOf(err) == fault.Invalid {
		f, _ := fault.Of(err)
		data := signInData{Email: email, Problems: f.Problems}
		return render(c, http.StatusBadRequest, "signin", view{Title: "Sign in", CSRF: domain.CSRFToken(token), Data: data})
	}
	if err != nil {
		return err
	}
	normal, _ := domain.NormalizeEmail(email)
	return render(c, http.StatusOK, "signin_sent", view{Title: "Check your inbox", Data: signInData{Email: normal, TTL: domain.Lifetime(h.LinkTTL)}})
}

type confirmData struct{ Email, Token string }

func (h *handlers) confirmSignInPage(c *fiber.Ctx) error {
	browser := browserToken(c)
	l, err := h.Console.PeekSignInLink(c.UserContext(), c.Params("token"), h.visitor(c, browser))
	if err != nil {
		return signInFailure(err)
	}
	data := confirmData{Email: l.Email, Token: c.Params("token")}
	return render(c, http.StatusOK, "signin_confirm", view{Title: "Sign in", CSRF: domain.CSRFToken(browser), Data: data})
}

func (h *handlers) signIn(c *fiber.Ctx) error {
	browser := browserBinding(c)
	if err := checkCSRF(c, browser); err != nil {
		return err
	}
	token, s, err := h.Console.SignIn(c.UserContext(), c.Params("token"), h.visitor(c, browser), c.Get(fiber.HeaderUserAgent))
	if err != nil {
		return signInFailure(err)
	}
	setCookie(c, sessionCookie, token, int(s.ExpiresAt.Sub(s.CreatedAt).Seconds()))
	// The browser is now one the console remembers for this person: it keeps its binding, and
	// the marker that says so, as long as the console remembers it.
	h.rememberBrowser(c, browser, s.Email)
	return c.Redirect("/", http.StatusSeeOther)
}

// signInFailure explains why a link does not sign in.
func signInFailure(err error) error {
	switch {
	case errors.Is(err, domain.ErrSignInLinkInvalid):
		return errLinkInvalid
	case errors.Is(err, domain.ErrSignInLinkOtherBrowser):
		return errOtherBrowser
	case errors.Is(err, domain.ErrNoMembership):
		return errNoMembership
	}
	return err
}

func (h *handlers) signOut(c *fiber.Ctx) error {
	if err := h.Console.RevokeSession(c.UserContext(), session(c).Email, session(c).ID); err != nil {
		return err
	}
	clearCookie(c, sessionCookie)
	clearCookie(c, knownCookie) // signing out forgets the browser
	return c.Redirect("/signin", http.StatusSeeOther)
}

func (h *handlers) home(c *fiber.Ctx) error {
	list, err := h.Console.Memberships(c.UserContext(), session(c).Email)
	if err != nil {
		return err
	}
	if len(list) == 1 {
		return c.Redirect("/orgs/"+list[0].OrganizerID+"/api", http.StatusSeeOther)
	}
	return render(c, http.StatusOK, "orgs", page(c, "Your organizations", "", list))
}

type sessionsData struct {
	Sessions []domain.Session
	Current  string
}

func (h *handlers) sessions(c *fiber.Ctx) error {
	list, err := h.Console.Sessions(c.UserContext(), session(c).Email)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, "sessions", page(c, "Sessions", "", sessionsData{Sessions: list, Current: session(c).ID}))
}

func (h *handlers) revokeSession(c *fiber.Ctx) error {
	if err := h.Console.RevokeSession(c.UserContext(), session(c).Email, c.Params("sessionId")); err != nil {
		return err
	}
	return c.Redirect("/sessions", http.StatusSeeOther)
}

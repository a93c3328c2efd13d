package api

import (
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/services/auth/internal/app"
)

type signInLinkRequest struct {
	Email string `json:"email"`
}

// SignInLinkView is an operator's sign-in link for a member: single use, bound to no browser.
type SignInLinkView struct {
	URL       string    `json:"url"`
	Email     string    `json:"email"`
	ExpiresAt time.Time `json:"expiresAt"`
}

// signInLink issues a console sign-in link for a member, to hand over (the local stack prints
// one for the demo organizer's owner).
func signInLink(con *app.Console) fiber.Handler {
	return func(c *fiber.Ctx) error {
		var req signInLinkRequest
		if err := httpserver.DecodeJSON(c, &req); err != nil {
			return err
		}
		l, err := con.OperatorSignInLink(c.UserContext(), req.Email)
		if err != nil {
			return err
		}
		c.Set(fiber.HeaderCacheControl, "no-store")
		return c.Status(fiber.StatusCreated).JSON(SignInLinkView{URL: l.URL, Email: l.Email, ExpiresAt: l.ExpiresAt})
	}
}

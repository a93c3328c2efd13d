package api

import (
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/checkout/internal/app"
)

// CodeTestKeyRequired refuses a live principal on a test-mode-only route.
const CodeTestKeyRequired = "test_key_required"

// requireTestKey refuses, with 403 test_key_required, a principal of live mode (the gateway
// refuses it first; this is defence in depth).
func requireTestKey(c *fiber.Ctx) error {
	if identity.From(c).Livemode() {
		return httpserver.Forbidden(CodeTestKeyRequired, "this route works on test data only: use a test-mode key")
	}
	return c.Next()
}

// testOutcome gives the test session of the path the outcome (202); the route takes no body.
func (h handlers) testOutcome(outcome app.TestOutcome) fiber.Handler {
	return func(c *fiber.Ctx) error {
		if len(c.Body()) > 0 {
			return httpserver.NewError(fiber.StatusRequestEntityTooLarge, "this route takes no body").WithCode(httpserver.CodeBodyTooLarge)
		}
		res, err := h.svc.GiveTestOutcome(c.UserContext(), identity.From(c).OrganizerID, strings.Clone(c.Params("sessionId")), outcome)
		if err != nil {
			return err
		}
		return c.Status(fiber.StatusAccepted).JSON(res)
	}
}

// deleteTestData deletes the test data of the organizer of the path, which must be the
// caller's principal's, and answers what it deleted.
func (h handlers) deleteTestData(c *fiber.Ctx) error {
	organizerID := strings.Clone(c.Params("organizerId"))
	if organizerID != identity.From(c).OrganizerID {
		return httpserver.Forbidden(httpserver.CodeForbidden, "the identity names another organizer")
	}
	n, err := h.svc.DeleteTestData(c.UserContext(), organizerID)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"checkoutSessions": n})
}

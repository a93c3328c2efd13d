package api

import (
	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/libs/identity"
)

// codeTestKeyRequired refuses a live principal on a route for test data only.
const codeTestKeyRequired = "test_key_required"

var (
	errOtherOrganizer = httpserver.Forbidden(httpserver.CodeForbidden, "the identity names another organizer than the path")
	errLiveWipe       = httpserver.Forbidden(codeTestKeyRequired, "this operation works on test data only; use a test key (pdm_sk_test_...)")
)

// testDataDeletedView is the wipe's answer, which registration adds to its own counts.
type testDataDeletedView struct {
	WebhookEndpoints  int `json:"webhookEndpoints"`
	WebhookDeliveries int `json:"webhookDeliveries"`
}

// deleteTestData wipes the test data of the path's organizer, for a test principal of it.
func (h handlers) deleteTestData(c *fiber.Ctx) error {
	p := identity.From(c)
	if c.Params("organizerId") != p.OrganizerID {
		return errOtherOrganizer
	}
	if p.Livemode() {
		return errLiveWipe
	}
	if err := noBody(c); err != nil {
		return err
	}
	deleted, err := h.svc.DeleteTestData(c.UserContext(), p.OrganizerID)
	if err != nil {
		return err
	}
	return c.JSON(testDataDeletedView{WebhookEndpoints: deleted.Endpoints, WebhookDeliveries: deleted.Deliveries})
}

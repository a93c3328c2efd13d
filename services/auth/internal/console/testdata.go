package console

import (
	"net/http"

	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/services/auth/internal/domain"
)

// The API tab's test-data tools, in test mode, for owners and admins: deleting the
// organization's test data and reading the test mail registration kept instead of sending it.
// Registration owns both; the console asks it through app.Console.

func (h *handlers) deleteTestData(c *fiber.Ctx) error {
	deleted, err := h.Console.DeleteTestData(c.UserContext(), session(c).Email, c.Params("organizerId"))
	if err != nil {
		return err
	}
	// The tab's listing is database work again: it takes a place, given back at the answer.
	release, err := h.Console.Hold(c.UserContext())
	if err != nil {
		return err
	}
	defer release()
	return h.renderAPITab(c, http.StatusOK, apiData{Deleted: &deleted, Notice: "The test data was deleted."})
}

type testMailData struct {
	Mail  []domain.TestMail
	Pager *pager
}

func (h *handlers) testMail(c *fiber.Ctx) error {
	p := pageOf(c)
	list, total, err := h.Console.TestMail(c.UserContext(), session(c).Email, c.Params("organizerId"), p)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, "test_mail", page(c, "Test mail", "api", testMailData{Mail: list, Pager: newPager(p, len(list), total)}))
}

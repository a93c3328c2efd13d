package api

import (
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/registration/internal/domain"
)

// Pages of a list: limit 1 to maxLimit (defaultLimit when absent), offset 0 to maxOffset.
const (
	defaultLimit = 50
	maxLimit     = 100
	maxOffset    = 9007199254740991
)

// requireTest refuses a live key on a test-only route (x-test-mode-only).
func requireTest(c *fiber.Ctx) error {
	if identity.From(c).Livemode() {
		return httpserver.Forbidden(domain.CodeTestKeyRequired, "this route works on test data only: use a test key")
	}
	return c.Next()
}

// sameOrganizer refuses a console call whose path names another organizer than its token.
func sameOrganizer(c *fiber.Ctx) error {
	if param(c, "organizerId") != identity.From(c).OrganizerID {
		return httpserver.Forbidden(httpserver.CodeForbidden, "the identity token names another organizer")
	}
	return c.Next()
}

// pageQuery reads limit and offset.
func pageQuery(c *fiber.Ctx) (domain.Page, error) {
	page := domain.Page{Limit: defaultLimit}
	var p fault.Problems
	if s := c.Query("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > maxLimit {
			p.Addf("limit must be an integer from 1 to %d", maxLimit)
		}
		page.Limit = n
	}
	if s := c.Query("offset"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 0 || n > maxOffset {
			p.Addf("offset must be an integer from 0 to %d", maxOffset)
		}
		page.Offset = int(n)
	}
	return page, p.Err(fault.Invalid)
}

type testMailList struct {
	Data   []domain.TestMail `json:"data"`
	Total  int               `json:"total"`
	Limit  int               `json:"limit"`
	Offset int               `json:"offset"`
}

func (h handlers) listTestMail(c *fiber.Ctx) error {
	page, err := pageQuery(c)
	if err != nil {
		return err
	}
	list, total, err := h.svc.TestMail(c.UserContext(), identity.From(c).OrganizerID, page)
	if err != nil {
		return err
	}
	return c.JSON(testMailList{Data: list, Total: total, Limit: page.Limit, Offset: page.Offset})
}

type testDataDeleted struct {
	Livemode bool                   `json:"livemode"`
	Deleted  domain.TestDataDeleted `json:"deleted"`
}

func (h handlers) deleteTestData(c *fiber.Ctx) error {
	d, err := h.svc.DeleteTestData(c.UserContext(), identity.From(c))
	if err != nil {
		return err
	}
	return c.JSON(testDataDeleted{Livemode: false, Deleted: d})
}

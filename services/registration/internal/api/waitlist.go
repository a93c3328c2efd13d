package api

import (
	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/registration/internal/domain"
)

type joinBody struct {
	CategoryID string `json:"categoryId"`
	Email      string `json:"email"`
	Name       string `json:"name"`
	TeamSize   int    `json:"teamSize"`
	OfferURL   string `json:"offerUrl"`
}

// joinView is an entry as the browser may see it: nothing of the buyer it did not send.
type joinView struct {
	ID         string `json:"id"`
	Object     string `json:"object"`
	EventID    string `json:"eventId"`
	CategoryID string `json:"categoryId"`
	Status     string `json:"status"`
	Position   *int   `json:"position"`
	Livemode   bool   `json:"livemode"`
}

func (h handlers) joinWaitlist(c *fiber.Ctx) error {
	var b joinBody
	if err := h.decode(c, "browserJoinWaitlist", &b); err != nil {
		return err
	}
	w, err := h.svc.JoinWaitlist(c.UserContext(), identity.From(c), param(c, "eventId"), domain.JoinInput{
		CategoryID: b.CategoryID, Email: b.Email, Name: b.Name, TeamSize: b.TeamSize, OfferURL: b.OfferURL,
	})
	if err != nil {
		return err
	}
	v := domain.NewWaitlistEntryView(w)
	return c.Status(fiber.StatusCreated).JSON(joinView{ID: v.ID, Object: v.Object, EventID: v.EventID, CategoryID: v.CategoryID,
		Status: v.Status, Position: v.Position, Livemode: v.Livemode})
}

type waitlistList struct {
	Data   []domain.WaitlistEntryView `json:"data"`
	Total  int                        `json:"total"`
	Limit  int                        `json:"limit"`
	Offset int                        `json:"offset"`
}

func (h handlers) listWaitlist(c *fiber.Ctx) error {
	page, err := pageQuery(c)
	if err != nil {
		return err
	}
	list, total, err := h.svc.Waitlist(c.UserContext(), identity.From(c), param(c, "categoryId"), page)
	if err != nil {
		return err
	}
	out := waitlistList{Data: make([]domain.WaitlistEntryView, len(list)), Total: total, Limit: page.Limit, Offset: page.Offset}
	for i, w := range list {
		out.Data[i] = domain.NewWaitlistEntryView(w)
	}
	return c.JSON(out)
}

func (h handlers) closeWaitlist(c *fiber.Ctx) error {
	caller := identity.From(c)
	category := param(c, "categoryId")
	n, err := h.svc.CloseWaitlist(c.UserContext(), caller, category)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"categoryId": category, "closed": true, "closedEntries": n, "livemode": caller.Livemode()})
}

func (h handlers) offerWaitlistEntry(c *fiber.Ctx) error {
	w, err := h.svc.OfferByHand(c.UserContext(), identity.From(c), param(c, "entryId"))
	if err != nil {
		return err
	}
	return c.JSON(domain.NewWaitlistEntryView(w))
}

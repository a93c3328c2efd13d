package api

import "github.com/gofiber/fiber/v2"

func (h handlers) auditLog(c *fiber.Ctx) error {
	page, err := pageOf(c)
	if err != nil {
		return err
	}
	list, total, err := h.svc.AuditLog(c.UserContext(), param(c, "organizerId"), page)
	if err != nil {
		return err
	}
	return c.JSON(ListView[AuditEntryView]{Data: mapAll(list, newAuditEntryView), Total: total, Limit: page.Limit, Offset: page.Offset})
}

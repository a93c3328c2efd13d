package api

import (
	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/auth/internal/domain"
)

// ContactView is an owner or admin of an organization, as the webhooks service mails them.
type ContactView struct {
	Email string `json:"email"`
	Role  string `json:"role"`
}

// contacts answers the organization's owners and admins to the webhooks service acting for
// that organization; the token's organizer must be the path's, else the organizer is not
// found.
func (h handlers) contacts(c *fiber.Ctx) error {
	organizerID := param(c, "organizerId")
	if identity.From(c).OrganizerID != organizerID {
		return domain.ErrOrganizerNotFound
	}
	list, err := h.svc.Contacts(c.UserContext(), organizerID)
	if err != nil {
		return err
	}
	out := make([]ContactView, len(list))
	for i, ct := range list {
		out[i] = ContactView{Email: ct.Email, Role: string(ct.Role)}
	}
	return c.JSON(fiber.Map{"data": out})
}

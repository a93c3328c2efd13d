package api

import (
	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/httpserver"
)

type addMemberRequest struct {
	Email string `json:"email"`
	Role  string `json:"role"`
}

type changeRoleRequest struct {
	Role string `json:"role"`
}

func (h handlers) addMember(c *fiber.Ctx) error {
	var req addMemberRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return err
	}
	m, err := h.svc.AddMember(c.UserContext(), operator(c), param(c, "organizerId"), req.Email, req.Role)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(newMemberView(m))
}

func (h handlers) listMembers(c *fiber.Ctx) error {
	page, err := pageOf(c)
	if err != nil {
		return err
	}
	list, total, err := h.svc.ListMembers(c.UserContext(), param(c, "organizerId"), page)
	if err != nil {
		return err
	}
	return c.JSON(ListView[MemberView]{Data: mapAll(list, newMemberView), Total: total, Limit: page.Limit, Offset: page.Offset})
}

func (h handlers) changeMemberRole(c *fiber.Ctx) error {
	var req changeRoleRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return err
	}
	m, err := h.svc.ChangeMemberRole(c.UserContext(), operator(c), param(c, "organizerId"), param(c, "memberId"), req.Role)
	if err != nil {
		return err
	}
	return c.JSON(newMemberView(m))
}

func (h handlers) removeMember(c *fiber.Ctx) error {
	m, err := h.svc.RemoveMember(c.UserContext(), operator(c), param(c, "organizerId"), param(c, "memberId"))
	if err != nil {
		return err
	}
	return c.JSON(newMemberView(m))
}

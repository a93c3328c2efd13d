package console

import (
	"net/http"

	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/services/auth/internal/domain"
)

type membersData struct {
	// ViewerIsOwner shows the owners' controls: only owners change or remove owners.
	ViewerIsOwner bool
	Members       []domain.Member
	Pager         *pager
	Roles         []domain.Role
	Email         string
	Problems      []string
	Notice        string
}

// roles are offered in every role selector, most powerful first.
var roles = []domain.Role{domain.RoleOwner, domain.RoleAdmin, domain.RoleMember}

func (h *handlers) members(c *fiber.Ctx) error {
	return h.renderMembers(c, http.StatusOK, membersData{Notice: notices[c.Query("done")]})
}

func (h *handlers) renderMembers(c *fiber.Ctx, status int, d membersData) error {
	p := pageOf(c)
	list, total, err := h.Console.Members(c.UserContext(), session(c).Email, c.Params("organizerId"), p)
	if err != nil {
		return err
	}
	d.Members, d.Pager, d.Roles = list, newPager(p, len(list), total), roles
	if d.ViewerIsOwner = membership(c).Role == domain.RoleOwner; !d.ViewerIsOwner {
		d.Roles = roles[1:] // only owners grant the owner role
	}
	return render(c, status, "members", page(c, "Members", "members", d))
}

func (h *handlers) inviteMember(c *fiber.Ctx) error {
	orgID, email := c.Params("organizerId"), c.FormValue("email")
	_, err := h.Console.InviteMember(c.UserContext(), h.actor(c), orgID, email, c.FormValue("role"))
	if problems := formProblems(err); problems != nil {
		return h.renderMembers(c, http.StatusBadRequest, membersData{Email: email, Problems: problems})
	}
	if err != nil {
		return err
	}
	return c.Redirect("/orgs/"+orgID+"/members?done=invited", http.StatusSeeOther)
}

func (h *handlers) changeRole(c *fiber.Ctx) error {
	orgID := c.Params("organizerId")
	_, err := h.Console.ChangeMemberRole(c.UserContext(), h.actor(c), orgID, c.Params("memberId"), c.FormValue("role"))
	if problems := formProblems(err); problems != nil {
		return h.renderMembers(c, http.StatusConflict, membersData{Problems: problems})
	}
	if err != nil {
		return err
	}
	return c.Redirect("/orgs/"+orgID+"/members?done=role", http.StatusSeeOther)
}

func (h *handlers) confirmRemovePage(c *fiber.Ctx) error {
	m, err := h.Console.Member(c.UserContext(), session(c).Email, c.Params("organizerId"), c.Params("memberId"))
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, "member_remove", page(c, "Remove member", "members", m))
}

func (h *handlers) removeMember(c *fiber.Ctx) error {
	orgID := c.Params("organizerId")
	_, err := h.Console.RemoveMember(c.UserContext(), h.actor(c), orgID, c.Params("memberId"))
	if problems := formProblems(err); problems != nil {
		return h.renderMembers(c, http.StatusConflict, membersData{Problems: problems})
	}
	if err != nil {
		return err
	}
	if m := membership(c); c.Params("memberId") == m.ID {
		return c.Redirect("/", http.StatusSeeOther)
	}
	return c.Redirect("/orgs/"+orgID+"/members?done=removed", http.StatusSeeOther)
}

// formProblems returns the problems of a refused change to show on its form (invalid input,
// a duplicate member, the last owner), or nil for other failures.
func formProblems(err error) []string {
	switch fault.KindOf(err) {
	case fault.Invalid, fault.Conflict:
		f, _ := fault.Of(err)
		return f.Problems
	}
	return nil
}

type auditData struct {
	Entries []domain.AuditEntry
	Pager   *pager
}

func (h *handlers) audit(c *fiber.Ctx) error {
	p := pageOf(c)
	list, total, err := h.Console.AuditLog(c.UserContext(), session(c).Email, c.Params("organizerId"), p)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, "audit", page(c, "Audit log", "audit", auditData{Entries: list, Pager: newPager(p, len(list), total)}))
}

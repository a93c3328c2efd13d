package app

import (
	"context"
	"fmt"

	"github.com/podiumhq/podium/libs/apikey"
	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/mail"
	"github.com/podiumhq/podium/services/auth/internal/domain"
)

// The console's organization pages: each checks first that the person is a member of the
// organization (another organization is not found) and, for a change, that their role allows it.

// authorize returns email's membership of the organizer, refusing with domain.ErrNotAllowed
// if manage is asked and the role does not allow it.
func (c *Console) authorize(ctx context.Context, email, organizerID string, manage bool) (domain.Membership, error) {
	m, err := c.Membership(ctx, email, organizerID)
	if err != nil {
		return domain.Membership{}, err
	}
	if manage && !domain.CanManage(m.Role) {
		return domain.Membership{}, domain.ErrNotAllowed
	}
	return m, nil
}

// Keys returns a page of the organizer's keys of mode, for any of its members.
func (c *Console) Keys(ctx context.Context, email, organizerID string, mode apikey.Mode, page domain.Page) ([]domain.Key, int, error) {
	if _, err := c.authorize(ctx, email, organizerID, false); err != nil {
		return nil, 0, err
	}
	return c.svc.ListKeys(ctx, organizerID, mode, page)
}

// Key returns one of the organizer's keys, for any of its members.
func (c *Console) Key(ctx context.Context, email, organizerID, keyID string) (domain.Key, error) {
	if _, err := c.authorize(ctx, email, organizerID, false); err != nil {
		return domain.Key{}, err
	}
	k, err := c.repo.OrganizerKey(ctx, organizerID, keyID)
	if err != nil {
		return domain.Key{}, fmt.Errorf("key: %w", err)
	}
	return k, nil
}

// CreateKey mints a key of the organizer for an owner or admin.
func (c *Console) CreateKey(ctx context.Context, actor domain.Actor, organizerID string, r domain.KeyRequest) (CreatedKey, error) {
	if _, err := c.authorize(ctx, actor.Email, organizerID, true); err != nil {
		return CreatedKey{}, err
	}
	return c.svc.CreateKey(ctx, actor, organizerID, r)
}

// RevokeKey revokes a key of the organizer for an owner or admin.
func (c *Console) RevokeKey(ctx context.Context, actor domain.Actor, organizerID, keyID string) (domain.Key, error) {
	if _, err := c.authorize(ctx, actor.Email, organizerID, true); err != nil {
		return domain.Key{}, err
	}
	return c.svc.RevokeOrganizerKey(ctx, actor, organizerID, keyID)
}

// Members returns a page of the organizer's members, for an owner or admin.
func (c *Console) Members(ctx context.Context, email, organizerID string, page domain.Page) ([]domain.Member, int, error) {
	if _, err := c.authorize(ctx, email, organizerID, true); err != nil {
		return nil, 0, err
	}
	return c.svc.ListMembers(ctx, organizerID, page)
}

// Member returns one of the organizer's members, for an owner or admin.
func (c *Console) Member(ctx context.Context, email, organizerID, memberID string) (domain.Member, error) {
	if _, err := c.authorize(ctx, email, organizerID, true); err != nil {
		return domain.Member{}, err
	}
	m, err := c.repo.OrganizerMember(ctx, organizerID, memberID)
	if err != nil {
		return domain.Member{}, fmt.Errorf("member: %w", err)
	}
	return m, nil
}

// InviteMember adds a member for an owner or admin (only an owner adds an owner) and e-mails
// them how to sign in.
func (c *Console) InviteMember(ctx context.Context, actor domain.Actor, organizerID, email, role string) (domain.Member, error) {
	by, err := c.authorize(ctx, actor.Email, organizerID, true)
	if err != nil {
		return domain.Member{}, err
	}
	if r, _ := domain.ParseRole(role); r == domain.RoleOwner && by.Role != domain.RoleOwner {
		return domain.Member{}, domain.ErrNotAllowed
	}
	m, err := c.svc.AddMember(ctx, actor, organizerID, email, role)
	if err != nil {
		return domain.Member{}, err
	}
	c.sendLater(ctx, c.invitationMail(by, m), "invitation")
	return m, nil
}

func (c *Console) invitationMail(by domain.Membership, m domain.Member) mail.Message {
	return mail.Message{
		To:      m.Email,
		Subject: fmt.Sprintf("You have been added to %s on Podium", by.OrganizerName),
		Body: fmt.Sprintf("%s added you to %s on Podium as %s.\n\nSign in to the console with this address: %s/signin\n",
			by.Email, by.OrganizerName, m.Role, c.cfg.URL),
	}
}

// ChangeMemberRole gives a member another role, for an owner or admin; only an owner grants or
// takes away the owner role.
func (c *Console) ChangeMemberRole(ctx context.Context, actor domain.Actor, organizerID, memberID, role string) (domain.Member, error) {
	next, problem := domain.ParseRole(role)
	if problem != "" {
		return domain.Member{}, fault.NewInvalid(problem)
	}
	if err := c.checkOwnerChange(ctx, actor, organizerID, memberID, next); err != nil {
		return domain.Member{}, err
	}
	return c.svc.ChangeMemberRole(ctx, actor, organizerID, memberID, string(next))
}

// RemoveMember removes a member, for an owner or admin; only an owner removes an owner.
func (c *Console) RemoveMember(ctx context.Context, actor domain.Actor, organizerID, memberID string) (domain.Member, error) {
	if err := c.checkOwnerChange(ctx, actor, organizerID, memberID, ""); err != nil {
		return domain.Member{}, err
	}
	return c.svc.RemoveMember(ctx, actor, organizerID, memberID)
}

// checkOwnerChange allows giving the member the role next (or removing them, when next is
// empty) if the actor manages the organization and, when the owner role is given or taken,
// is an owner.
func (c *Console) checkOwnerChange(ctx context.Context, actor domain.Actor, organizerID, memberID string, next domain.Role) error {
	by, err := c.authorize(ctx, actor.Email, organizerID, true)
	if err != nil {
		return err
	}
	target, err := c.repo.OrganizerMember(ctx, organizerID, memberID)
	if err != nil {
		return fmt.Errorf("member: %w", err)
	}
	if (target.Role == domain.RoleOwner || next == domain.RoleOwner) && by.Role != domain.RoleOwner {
		return domain.ErrNotAllowed
	}
	return nil
}

// AuditLog returns a page of the organizer's audit log, for an owner or admin.
func (c *Console) AuditLog(ctx context.Context, email, organizerID string, page domain.Page) ([]domain.AuditEntry, int, error) {
	if _, err := c.authorize(ctx, email, organizerID, true); err != nil {
		return nil, 0, err
	}
	return c.svc.AuditLog(ctx, organizerID, page)
}

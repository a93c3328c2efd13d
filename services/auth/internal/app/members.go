package app

import (
	"context"
	"fmt"
	"time"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/services/auth/internal/domain"
)

// MemberRepository stores organizations' members, each operation scoped by organizer id.
type MemberRepository interface {
	// AddMember stores m with its audit entry by actor; it returns domain.ErrOrganizerNotFound
	// or domain.ErrDuplicateMember.
	AddMember(ctx context.Context, actor domain.Actor, m domain.Member) error
	// Members returns a page of an organizer's members, newest first, and how many it has.
	Members(ctx context.Context, organizerID string, page domain.Page) ([]domain.Member, int, error)
	// SetMemberRole gives the member the role at m.UpdatedAt, with its audit entry by actor
	// when the role changed, unless that would leave the organization without an owner
	// (domain.ErrLastOwner), and returns it as it now is, or domain.ErrMemberNotFound.
	SetMemberRole(ctx context.Context, actor domain.Actor, m domain.Member) (domain.Member, error)
	// RemoveMember deletes the member, with its audit entry by actor at the given time, unless
	// it is the organization's last owner (domain.ErrLastOwner), and returns it as it was, or
	// domain.ErrMemberNotFound. From their last organization, it forgets the browsers they
	// signed in with as well.
	RemoveMember(ctx context.Context, actor domain.Actor, organizerID, memberID string, at time.Time) (domain.Member, error)
	// Contacts returns the organization's owners and admins.
	Contacts(ctx context.Context, organizerID string) ([]domain.Contact, error)
}

// AddMember validates email and role and adds a member to the organizer, recorded as added by
// actor. An unknown organizer is reported before problems in the input.
func (s *Service) AddMember(ctx context.Context, actor domain.Actor, organizerID, email, role string) (domain.Member, error) {
	if _, err := s.repo.Organizer(ctx, organizerID); err != nil {
		return domain.Member{}, fmt.Errorf("add member: %w", err)
	}
	m, err := domain.NewMember(organizerID, email, role, s.clock.Now())
	if err != nil {
		return domain.Member{}, err
	}
	if err := s.repo.AddMember(ctx, actor, m); err != nil {
		return domain.Member{}, fmt.Errorf("add member: %w", err)
	}
	return m, nil
}

// ListMembers returns a page of an organizer's members and their total count.
func (s *Service) ListMembers(ctx context.Context, organizerID string, page domain.Page) ([]domain.Member, int, error) {
	if _, err := s.repo.Organizer(ctx, organizerID); err != nil {
		return nil, 0, fmt.Errorf("list members: %w", err)
	}
	list, total, err := s.repo.Members(ctx, organizerID, page)
	if err != nil {
		return nil, 0, fmt.Errorf("list members: %w", err)
	}
	return list, total, nil
}

// ChangeMemberRole gives a member of the organizer another role, recorded as changed by actor;
// the last owner keeps theirs.
func (s *Service) ChangeMemberRole(ctx context.Context, actor domain.Actor, organizerID, memberID, role string) (domain.Member, error) {
	r, problem := domain.ParseRole(role)
	if problem != "" {
		return domain.Member{}, fault.NewInvalid(problem)
	}
	m, err := s.repo.SetMemberRole(ctx, actor, domain.Member{ID: memberID, OrganizerID: organizerID, Role: r, UpdatedAt: s.clock.Now()})
	if err != nil {
		return domain.Member{}, fmt.Errorf("change member role: %w", err)
	}
	return m, nil
}

// RemoveMember removes a member from the organizer, recorded as removed by actor; the last
// owner stays.
func (s *Service) RemoveMember(ctx context.Context, actor domain.Actor, organizerID, memberID string) (domain.Member, error) {
	m, err := s.repo.RemoveMember(ctx, actor, organizerID, memberID, s.clock.Now())
	if err != nil {
		return domain.Member{}, fmt.Errorf("remove member: %w", err)
	}
	return m, nil
}

// Contacts returns who is told about the organization's integrations (a webhook endpoint
// disabled after failing): its owners and admins.
func (s *Service) Contacts(ctx context.Context, organizerID string) ([]domain.Contact, error) {
	if _, err := s.repo.Organizer(ctx, organizerID); err != nil {
		return nil, fmt.Errorf("contacts: %w", err)
	}
	list, err := s.repo.Contacts(ctx, organizerID)
	if err != nil {
		return nil, fmt.Errorf("contacts: %w", err)
	}
	return list, nil
}

package app

import (
	"context"
	"fmt"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/registration/internal/domain"
)

// CreateInput is an organizer's create request.
type CreateInput struct {
	EventID string
	domain.RegistrationInput
}

// Create registers a team as the caller's organizer: a COMPLETED manual order (amount 0), the
// registration and one ACTIVE ticket per athlete, taking one confirmed place.
func (s *Service) Create(ctx context.Context, caller identity.Principal, in CreateInput) (domain.Registration, error) {
	if err := domain.CheckShape("", in.RegistrationInput); err != nil {
		return domain.Registration{}, err
	}
	e, err := s.event(ctx, caller, in.EventID)
	if err != nil {
		return domain.Registration{}, err
	}
	c, ok := e.Category(in.CategoryID)
	if !ok {
		return domain.Registration{}, fault.NewNotFound(fmt.Sprintf("category %s in event %s", in.CategoryID, e.ID))
	}
	if err := domain.CheckEligibility("", e, c, in.RegistrationInput); err != nil {
		return domain.Registration{}, err
	}
	now := s.clock.Now()
	o := domain.Order{
		ID: domain.NewOrderID(), OrganizerID: caller.OrganizerID, EventID: e.ID, Status: domain.OrderCompleted,
		Source: domain.SourceManual, Currency: e.Currency, PaidAt: &now, Livemode: caller.Livemode(), CreatedAt: now, UpdatedAt: now,
	}
	r := domain.NewRegistration(o, e, c, in.RegistrationInput, now)
	if err := s.repo.CreateOrder(ctx, o, []domain.Registration{r}, map[string]*int{c.ID: c.Quota}); err != nil {
		return domain.Registration{}, fmt.Errorf("create registration: %w", err)
	}
	r.Order = &o
	return r, nil
}

// Update applies a partial update to the caller's organizer's registration holding ticketID.
func (s *Service) Update(ctx context.Context, caller identity.Principal, ticketID string, p domain.Patch) (domain.Registration, error) {
	scope := scopeOf(caller)
	cur, err := s.repo.Registration(ctx, scope, ticketID)
	if err != nil {
		return domain.Registration{}, fmt.Errorf("update registration: %w", err)
	}
	e, err := s.event(ctx, caller, cur.EventID)
	if err != nil {
		return domain.Registration{}, err
	}
	now := s.clock.Now()
	r, err := s.repo.UpdateRegistration(ctx, scope, ticketID, func(locked domain.Registration) (domain.UpdatePlan, error) {
		return domain.PlanUpdate(e, locked, p, now)
	}, quotaOf(e))
	if err != nil {
		return domain.Registration{}, fmt.Errorf("update registration: %w", err)
	}
	return r, nil
}

// Delete deletes or cancels the registration holding ticketID (domain.DecideDelete).
func (s *Service) Delete(ctx context.Context, caller identity.Principal, ticketID string) (domain.DeleteResult, error) {
	res, err := s.repo.DeleteRegistration(ctx, scopeOf(caller), ticketID, s.clock.Now())
	if err != nil {
		return domain.DeleteResult{}, fmt.Errorf("delete registration: %w", err)
	}
	s.Nudge()
	return res, nil
}

// Search returns a page of the caller's organizer's athlete tickets in the caller's mode and
// the number matching.
func (s *Service) Search(ctx context.Context, caller identity.Principal, r domain.SearchRequest) ([]domain.SearchRow, int, domain.SearchQuery, error) {
	q, err := r.Normalize()
	if err != nil {
		return nil, 0, q, err
	}
	rows, total, err := s.repo.Search(ctx, scopeOf(caller), q)
	if err != nil {
		return nil, 0, q, fmt.Errorf("search registrations: %w", err)
	}
	return rows, total, q, nil
}

package app

import (
	"context"
	"errors"
	"fmt"

	"github.com/podiumhq/podium/services/catalog/internal/domain"
)

// Search returns a page of events; s comes from domain.NewSearch.
func (s *Service) Search(ctx context.Context, q domain.Search) (domain.Page, error) {
	page, err := s.repo.Search(ctx, q)
	if err != nil {
		return domain.Page{}, fmt.Errorf("search events: %w", err)
	}
	return page, nil
}

// OrganizerEvent returns one of the organizer's events, whatever its status and flags.
func (s *Service) OrganizerEvent(ctx context.Context, scope domain.OrganizerScope, id string) (domain.Event, error) {
	e, err := s.repo.Event(ctx, scope, id)
	if err != nil {
		return domain.Event{}, fmt.Errorf("organizer event: %w", err)
	}
	return e, nil
}

// BrowserEvent returns the public view of one of the organizer's events when it is published
// and not private (in a test scope, not private whatever its status) or, with previewToken
// set, when previewToken is the event's preview token (whatever its status and flags).
// Otherwise the event is not found, exactly as an unknown one: the answer tells nothing about
// events the caller may not see.
func (s *Service) BrowserEvent(ctx context.Context, scope domain.OrganizerScope, id, previewToken string) (domain.Event, error) {
	e, err := s.OrganizerEvent(ctx, scope, id)
	if err != nil {
		return domain.Event{}, err
	}
	if !e.BrowserVisible(scope, previewToken) {
		return domain.Event{}, domain.EventNotFound(id)
	}
	return e.PublicView(), nil
}

// OrganizerPricing returns the cards of every category of one of the organizer's events.
func (s *Service) OrganizerPricing(ctx context.Context, scope domain.OrganizerScope, id string) (domain.Pricing, error) {
	e, err := s.OrganizerEvent(ctx, scope, id)
	if err != nil {
		return domain.Pricing{}, err
	}
	return e.PricingAt(s.Now(), domain.AllCategories)
}

// BrowserPricing returns the cards of the published, non-private categories of an event the
// browser surface may see (see BrowserEvent).
func (s *Service) BrowserPricing(ctx context.Context, scope domain.OrganizerScope, id, previewToken string) (domain.Pricing, error) {
	e, err := s.BrowserEvent(ctx, scope, id, previewToken)
	if err != nil {
		return domain.Pricing{}, err
	}
	return e.PricingAt(s.Now(), domain.PublicCategories)
}

// InternalEvent returns an event in scope whatever its status and flags, with the pricing of
// every category now, for registration and checkout.
func (s *Service) InternalEvent(ctx context.Context, scope domain.OrganizerScope, id string) (domain.Event, domain.Pricing, error) {
	e, err := s.repo.Event(ctx, scope, id)
	if err != nil {
		return domain.Event{}, domain.Pricing{}, fmt.Errorf("internal event: %w", err)
	}
	return s.internal(e)
}

// InternalEventOfCategory is InternalEvent for the event a category belongs to: checkout's
// summary names a category only.
func (s *Service) InternalEventOfCategory(ctx context.Context, scope domain.OrganizerScope, categoryID string) (domain.Event, domain.Pricing, error) {
	e, err := s.repo.EventOfCategory(ctx, scope, categoryID)
	if err != nil {
		return domain.Event{}, domain.Pricing{}, fmt.Errorf("internal event of category: %w", err)
	}
	return s.internal(e)
}

func (s *Service) internal(e domain.Event) (domain.Event, domain.Pricing, error) {
	p, err := e.PricingAt(s.Now(), domain.AllCategories)
	if err != nil {
		return domain.Event{}, domain.Pricing{}, err
	}
	return e, p, nil
}

// ErrInvalidPlaces marks a places message that can never be applied.
var ErrInvalidPlaces = errors.New("invalid places message")

// ApplyPlaces applies a places message to the projection of its mode (live or test) and, when
// it was newer than what the projection holds for one of its categories, announces each
// category whose active tier or sold-out state switched in that mode
// (podium.catalog.pricing.changed.v1 with the message's livemode) and drops this process's
// pricing views of the event. Older and repeated versions change nothing.
func (s *Service) ApplyPlaces(ctx context.Context, m domain.PlacesChanged) error {
	if err := m.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidPlaces, err)
	}
	now := s.Now()
	applied, err := s.repo.ApplyPlaces(ctx, m, now, func(before, after domain.Event) ([]domain.Message, error) {
		return pricingSwitches(before, now, after, now, m.Live())
	})
	if err != nil {
		return fmt.Errorf("apply places: %w", err)
	}
	if applied {
		s.inval.PlacesChanged(m.EventID)
	}
	return nil
}

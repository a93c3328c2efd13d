// Package app holds the catalog's use cases: importing events (admin API and CLI), reading
// them on the organizer and browser surfaces and through the internal API, pricing, and
// applying registration's places to the projection.
package app

import (
	"context"
	"fmt"
	"time"

	"github.com/podiumhq/podium/libs/clock"
	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/services/catalog/internal/domain"
	"github.com/podiumhq/podium/services/catalog/internal/importfile"
)

// Repository stores events. Implementations own their transactions: an import's outbox
// message is written in the transaction that stores it.
type Repository interface {
	// Import serialises the imports of (organizerID, externalID), calls merge with the stored
	// event (nil when there is none, live places included) and, when merge returns messages (it
	// does for every change), stores its result and the messages in one transaction. No places
	// of the event are applied meanwhile. It returns the event as stored.
	Import(ctx context.Context, organizerID, externalID string, merge func(current *domain.Event) (domain.Event, []domain.Message, error)) (domain.Event, error)
	// EventByExternalID returns an organizer's event by its external id, or
	// domain.EventNotFound.
	EventByExternalID(ctx context.Context, organizerID, externalID string) (domain.Event, error)
	// Event returns the event with id in scope, with every child and the places of its
	// categories in the scope's mode, or domain.EventNotFound.
	Event(ctx context.Context, scope domain.OrganizerScope, id string) (domain.Event, error)
	// EventOfCategory returns the event in scope the category belongs to, as Event does, or
	// domain.CategoryNotFound.
	EventOfCategory(ctx context.Context, scope domain.OrganizerScope, categoryID string) (domain.Event, error)
	// Search returns a page of events (without children) and how many match.
	Search(ctx context.Context, s domain.Search) (domain.Page, error)
	// ApplyPlaces stores the counts of each category of m in m's mode unless a message of the
	// same or a higher version for the category and mode was applied; it reports whether it
	// stored any. When it did and the event exists, it stores the messages announce makes of
	// the event (its categories with their places of m's mode) before and after, in the same transaction, with no other
	// change of the event's pricing in between.
	ApplyPlaces(ctx context.Context, m domain.PlacesChanged, at time.Time, announce func(before, after domain.Event) ([]domain.Message, error)) (bool, error)
	// SwitchTiers, unless another instance is at it, calls announce for every event whose
	// tiers may have switched by date since the mark (each with its categories and live places),
	// stores the messages it returns and moves the mark to now, in one transaction; the first
	// run only sets the mark. It returns how many messages it stored.
	SwitchTiers(ctx context.Context, now time.Time, announce func(e domain.Event, mark time.Time) ([]domain.Message, error)) (int, error)
}

// Invalidator drops views derived from events when they change; the HTTP layer's cache
// implements it.
type Invalidator interface {
	// EventChanged drops every view of the organizer's events.
	EventChanged(organizerID, eventID string)
	// PlacesChanged drops the pricing views of the event.
	PlacesChanged(eventID string)
}

// Service runs the use cases.
type Service struct {
	repo  Repository
	clock clock.Clock
	inval Invalidator
}

// New returns a Service over repo; now is the clock (time.Now in production) and inval is told
// about every change this process makes.
func New(repo Repository, now clock.Clock, inval Invalidator) *Service {
	return &Service{repo: repo, clock: now, inval: inval}
}

// Now returns the current time of the service's clock, at the database's microsecond
// precision.
func (s *Service) Now() time.Time { return s.clock.Now() }

// ImportResult is an event as an import left it.
type ImportResult struct {
	Event domain.Event
	// Created is set when the import created the event; Changed when it created or updated it
	// (an identical import changes nothing).
	Created bool
	Changed bool
}

// Import creates or updates the organizer's event externalID from an import file. A change is
// announced by podium.catalog.event.changed.v1 and, for each category whose active tier or
// sold-out state it switched with the live places, podium.catalog.pricing.changed.v1 (an
// import is a change of the shared catalog: live; test cards are not announced).
func (s *Service) Import(ctx context.Context, organizerID, externalID string, f importfile.Format, body []byte) (ImportResult, error) {
	if err := checkRefs(organizerID, externalID); err != nil {
		return ImportResult{}, err
	}
	draft, err := importfile.Parse(f, body)
	if err != nil {
		return ImportResult{}, err
	}
	if draft.ExternalID != externalID {
		return ImportResult{}, fault.NewInvalid(fmt.Sprintf("externalId %q in the file does not match %q in the path", draft.ExternalID, externalID))
	}
	var res ImportResult
	e, err := s.repo.Import(ctx, organizerID, externalID, func(current *domain.Event) (domain.Event, []domain.Message, error) {
		now := s.Now()
		merged, changed, err := domain.Merge(current, draft, organizerID, now)
		res.Created, res.Changed = current == nil && changed, changed
		if err != nil || !changed {
			return merged, nil, err
		}
		changedMsg, err := EventChangedMessage(merged, now)
		if err != nil {
			return merged, nil, err
		}
		msgs := []domain.Message{changedMsg}
		if current != nil {
			switched, err := pricingSwitches(*current, now, merged, now, true)
			if err != nil {
				return merged, nil, err
			}
			msgs = append(msgs, switched...)
		}
		return merged, msgs, nil
	})
	if err != nil {
		return ImportResult{}, fmt.Errorf("import: %w", err)
	}
	res.Event = e
	if res.Changed {
		s.inval.EventChanged(organizerID, e.ID)
	}
	return res, nil
}

// AdminEvent returns the organizer's event with external id externalID.
func (s *Service) AdminEvent(ctx context.Context, organizerID, externalID string) (domain.Event, error) {
	if err := checkRefs(organizerID, externalID); err != nil {
		return domain.Event{}, err
	}
	e, err := s.repo.EventByExternalID(ctx, organizerID, externalID)
	if err != nil {
		return domain.Event{}, fmt.Errorf("admin event: %w", err)
	}
	return e, nil
}

// AdminEvents returns a page of the organizer's events, every status and flag.
func (s *Service) AdminEvents(ctx context.Context, organizerID string, limit int, offset int64) (domain.Page, error) {
	if err := checkRefs(organizerID, ""); err != nil {
		return domain.Page{}, err
	}
	return s.Search(ctx, domain.Search{OrganizerID: organizerID, Limit: limit, Offset: offset})
}

func checkRefs(organizerID, externalID string) error {
	var p fault.Problems
	if !domain.ValidOrganizerID(organizerID) {
		p.Add("organizerId must be an organizer id: org_ followed by letters, digits, '_' or '-'")
	}
	if externalID != "" && !domain.ValidExternalID(externalID) {
		p.Add("externalId must be 1 to 100 letters, digits, '.', '_' or '-', starting with a letter or digit")
	}
	return p.Err(fault.Invalid)
}

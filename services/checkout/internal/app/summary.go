package app

import (
	"context"
	"fmt"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// Summary prices a registration and its guests at the catalog's prices of now, with the
// promocode and fees, as the browser will be charged (per-athlete supplements for the
// category's minimum team size, since the summary has no athletes). A promocode is refused
// unseen while the buyer's address or key is blocked for failing too many, and a code that
// is unknown or cannot be used counts as a failure (see admitPromocode).
func (s *Service) Summary(ctx context.Context, b Buyer, r domain.SummaryRequest) (domain.Quote, error) {
	charged, err := s.admitPromocode(ctx, b, r.Promocode)
	if err != nil {
		return domain.Quote{}, err
	}
	q, err := s.summary(ctx, b.Principal, r)
	s.settlePromocode(ctx, b, charged, err)
	return q, err
}

func (s *Service) summary(ctx context.Context, as identity.Principal, r domain.SummaryRequest) (domain.Quote, error) {
	ev, err := s.summaryEvent(ctx, as, r)
	if err != nil {
		return domain.Quote{}, err
	}
	if err := visible(&ev, as, r.PreviewToken); err != nil {
		if r.EventID == "" { // asked by category: name only what the buyer named
			return domain.Quote{}, fault.NewNotFound("category " + r.CategoryID)
		}
		return domain.Quote{}, err
	}
	promo, err := s.promocode(ctx, &ev, r.Promocode, as.Livemode(), true)
	if err != nil {
		return domain.Quote{}, err
	}
	return domain.Price(&ev, r.Selections(), promo)
}

// summaryEvent reads the event named in the body, or else the event of the category.
func (s *Service) summaryEvent(ctx context.Context, as identity.Principal, r domain.SummaryRequest) (domain.Event, error) {
	if r.EventID != "" {
		ev, err := s.catalog.Event(ctx, as, r.EventID)
		if err != nil {
			return domain.Event{}, fmt.Errorf("summary: %w", err)
		}
		return ev, nil
	}
	ev, err := s.catalog.EventOfCategory(ctx, as, r.CategoryID)
	if err != nil {
		return domain.Event{}, fmt.Errorf("summary: %w", err)
	}
	return ev, nil
}

// promocode checks a promocode against the event and, with countUses, its uses at now in the
// buyer's mode (a test purchase never takes a live use); an
// empty code is no promocode. A session leaves the count to the atomic reservation (which a
// resumed attempt already holds).
func (s *Service) promocode(ctx context.Context, ev *domain.Event, code string, livemode, countUses bool) (*domain.Promocode, error) {
	if code == "" {
		return nil, nil
	}
	var used int64
	if p, ok := ev.Promocode(code); ok && p.MaxUses != nil && countUses {
		n, err := s.repo.PromocodeUses(ctx, ev.ID, code, livemode, s.clock.Now())
		if err != nil {
			return nil, fmt.Errorf("promocode uses: %w", err)
		}
		used = n
	}
	return domain.CheckPromocode(ev, code, s.clock.Now(), used)
}

package app

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/podiumhq/podium/libs/clock"
	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/registration/internal/domain"
)

// Waitlist is what the waitlist use cases need of the repository.
type Waitlist interface {
	// JoinWaitlist puts w in line (or returns its address's entry in line or offered): a
	// closed waitlist is a conflict, and so is a category whose ledger leaves more places of
	// quota than wait in line (the buyer should buy); a new entry beyond its e-mail's limits
	// is refused (domain.WaitlistLimits.Admit).
	JoinWaitlist(ctx context.Context, w domain.WaitlistEntry, quota int, limits domain.WaitlistLimits) (domain.WaitlistEntry, error)
	// CategoriesToOffer returns categories with a free place and someone in line.
	CategoriesToOffer(ctx context.Context, limit int) ([]domain.CategoryMode, error)
	// WaitingCategories returns categories where someone waits in line.
	WaitingCategories(ctx context.Context, limit int) ([]domain.WaitingCategory, error)
	// RaiseQuota tells the ledger a quota the catalog raised.
	RaiseQuota(ctx context.Context, c domain.CategoryMode, quota int) error
	// OfferNext holds a free place for the first in line until expires and mails the offer;
	// found is false when no one waits or no place is free.
	OfferNext(ctx context.Context, c domain.CategoryMode, now, expires time.Time) (domain.WaitlistEntry, bool, error)
	// OfferEntry does what OfferNext does for the organizer's entry id, out of line.
	OfferEntry(ctx context.Context, s domain.Scope, id string, now, expires time.Time) (domain.WaitlistEntry, error)
	// LapsedOffers returns the ids of offers whose time passed by now.
	LapsedOffers(ctx context.Context, now time.Time, limit int) ([]string, error)
	// LapseOffer ends a lapsed offer and frees its place.
	LapseOffer(ctx context.Context, id string, now time.Time) error
	// Waitlist returns a page of a category's waitlist and its size.
	Waitlist(ctx context.Context, s domain.Scope, categoryID string, p domain.Page) ([]domain.WaitlistEntry, int, error)
	// CloseWaitlist closes a category's waitlist and returns how many were in line.
	CloseWaitlist(ctx context.Context, s domain.Scope, c domain.CategoryMode, now time.Time) (int, error)
}

// JoinWaitlist puts a buyer in line for a sold-out public category of the event.
func (s *Service) JoinWaitlist(ctx context.Context, caller identity.Principal, eventID string, in domain.JoinInput) (domain.WaitlistEntry, error) {
	e, err := s.publicEvent(ctx, caller, eventID)
	if err != nil {
		return domain.WaitlistEntry{}, err
	}
	c, ok := e.Category(in.CategoryID)
	if !ok || c.Private || !c.Published && caller.Livemode() {
		return domain.WaitlistEntry{}, domain.NotFound("category", in.CategoryID)
	}
	if err := domain.CheckJoin(c, in, caller.Origin); err != nil {
		return domain.WaitlistEntry{}, err
	}
	if c.Quota == nil {
		return domain.WaitlistEntry{}, fault.NewConflict(fmt.Sprintf("category %s has no limit on places: buy one instead of joining a waitlist", c.ID)).
			WithCode(domain.CodeNotSoldOut)
	}
	w := domain.NewWaitlistEntry(scopeOf(caller), e, c, in, s.waitlistClock().Now())
	return s.waitlist.JoinWaitlist(ctx, w, *c.Quota, s.opts.WaitlistLimits)
}

// OfferFreed offers every free place of a category with someone in line, first in line first,
// after telling the ledger the quotas the catalog raised; it returns how many it offered.
// A quota the catalog could not tell is an error returned after the offers the ledger allows.
func (s *Service) OfferFreed(ctx context.Context) (int, error) {
	refreshed := s.refreshQuotas(ctx)
	cats, err := s.waitlist.CategoriesToOffer(ctx, 100)
	if err != nil {
		return 0, fmt.Errorf("offer freed places: %w", err)
	}
	n := 0
	for _, c := range cats {
		for {
			now := s.waitlistClock().Now()
			_, found, err := s.waitlist.OfferNext(ctx, c, now, now.Add(s.opts.OfferTTL))
			if err != nil {
				return n, fmt.Errorf("offer freed places: %w", err)
			}
			if !found {
				break
			}
			n++
		}
	}
	return n, refreshed
}

// refreshQuotas reads the catalog's quota of each category where someone waits and raises
// the ledger's to it, so places a raised quota adds are offered. A category whose event the
// catalog cannot tell keeps the ledger's quota until the next round; the first such failure
// is returned once every other category was refreshed.
func (s *Service) refreshQuotas(ctx context.Context) error {
	cats, err := s.waitlist.WaitingCategories(ctx, 500)
	if err != nil {
		return fmt.Errorf("refresh quotas: %w", err)
	}
	var failed error
	for _, c := range cats {
		as := identity.Principal{OrganizerID: c.OrganizerID, KeyID: "registration-waitlist", KeyType: identity.Service, Test: !c.Livemode}
		e, err := s.event(ctx, as, c.EventID)
		if err != nil {
			if failed == nil {
				failed = fmt.Errorf("refresh quotas: %w", err)
			}
			continue
		}
		if cat, ok := e.Category(c.CategoryID); ok && cat.Quota != nil {
			if err := s.waitlist.RaiseQuota(ctx, c.CategoryMode, *cat.Quota); err != nil {
				return fmt.Errorf("refresh quotas: %w", err)
			}
		}
	}
	return failed
}

// LapseOffers ends the offers whose time passed, freeing their places for the next in line,
// and returns how many it ended.
func (s *Service) LapseOffers(ctx context.Context) (int, error) {
	now := s.waitlistClock().Now()
	ids, err := s.waitlist.LapsedOffers(ctx, now, 100)
	if err != nil {
		return 0, fmt.Errorf("lapse offers: %w", err)
	}
	for _, id := range ids {
		if err := s.waitlist.LapseOffer(ctx, id, now); err != nil {
			return 0, fmt.Errorf("lapse offers: %w", err)
		}
	}
	return len(ids), nil
}

// RunWaitlist lapses offers and offers freed places every round (each tick, and at once when
// Nudge is called) until ctx is done; failures are logged and retried on the next round.
func (s *Service) RunWaitlist(ctx context.Context, interval time.Duration, log interface {
	ErrorContext(ctx context.Context, msg string, args ...any)
}) error {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		case <-s.nudge:
		}
		if _, err := s.LapseOffers(ctx); err != nil && ctx.Err() == nil {
			log.ErrorContext(ctx, "lapsing waitlist offers failed; retrying on the next round", "err", err)
		}
		if _, err := s.OfferFreed(ctx); err != nil && ctx.Err() == nil {
			log.ErrorContext(ctx, "offering freed places failed; retrying on the next round", "err", err)
		}
	}
}

// SetWaitlistClock runs the waitlist's offers and lapses on c instead of the service's clock:
// only local stacks and end-to-end tests set it, to let an offer's time pass.
func (s *Service) SetWaitlistClock(c clock.Clock) { s.offerClock = c }

func (s *Service) waitlistClock() clock.Clock {
	if s.offerClock != nil {
		return s.offerClock
	}
	return s.clock
}

// Nudge asks the waitlist worker for a round now (places may have been freed).
func (s *Service) Nudge() {
	select {
	case s.nudge <- struct{}{}:
	default:
	}
}

// Waitlist returns a page of the caller's waitlist of a category, in line order.
func (s *Service) Waitlist(ctx context.Context, caller identity.Principal, categoryID string, p domain.Page) ([]domain.WaitlistEntry, int, error) {
	return s.waitlist.Waitlist(ctx, scopeOf(caller), categoryID, p)
}

// OfferByHand offers a free place of its category to the caller's entry, out of line.
func (s *Service) OfferByHand(ctx context.Context, caller identity.Principal, entryID string) (domain.WaitlistEntry, error) {
	now := s.waitlistClock().Now()
	return s.waitlist.OfferEntry(ctx, scopeOf(caller), strings.TrimSpace(entryID), now, now.Add(s.opts.OfferTTL))
}

// CloseWaitlist closes the caller's waitlist of a category and returns how many were in line;
// a category without a waitlist of the caller is not found.
func (s *Service) CloseWaitlist(ctx context.Context, caller identity.Principal, categoryID string) (int, error) {
	scope := scopeOf(caller)
	if _, total, err := s.waitlist.Waitlist(ctx, scope, categoryID, domain.Page{Limit: 1}); err != nil {
		return 0, err
	} else if total == 0 {
		return 0, nil
	}
	return s.waitlist.CloseWaitlist(ctx, scope, domain.CategoryMode{CategoryID: categoryID, Livemode: scope.Livemode}, s.waitlistClock().Now())
}

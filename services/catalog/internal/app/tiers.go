package app

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/podiumhq/podium/services/catalog/internal/domain"
)

// TierSwitchInterval is how often date-based tier switches are looked for: a switch is
// announced within it.
const TierSwitchInterval = 30 * time.Second

// SwitchTiers announces the categories whose active tier switched by date since the last run
// (podium.catalog.pricing.changed.v1): their cards at the last run and now, both with the
// event and places as they are now, differ. Places applied meanwhile announced their own
// switches at their time. An import meanwhile that moved tier dates across the interval may
// make a category announced twice (each message carries the card as it is), never missed. It
// returns how many categories it announced; when another instance is at it, none. Date
// switches are the catalog's own: announced with live places only (livemode true).
func (s *Service) SwitchTiers(ctx context.Context) (int, error) {
	now := s.Now()
	n, err := s.repo.SwitchTiers(ctx, now, func(e domain.Event, mark time.Time) ([]domain.Message, error) {
		return pricingSwitches(e, mark, e, now, true)
	})
	if err != nil {
		return 0, fmt.Errorf("switch tiers: %w", err)
	}
	return n, nil
}

// RunTierSwitches runs SwitchTiers at once, then every interval until ctx ends; a failed run
// is logged and tried again at the next.
func (s *Service) RunTierSwitches(ctx context.Context, interval time.Duration, log *slog.Logger) error {
	for {
		n, err := s.SwitchTiers(ctx)
		switch {
		case err != nil && ctx.Err() == nil:
			log.ErrorContext(ctx, "announcing tier switches failed; retrying at the next interval", "err", err)
		case n > 0:
			log.InfoContext(ctx, "tier switches announced", "categories", n)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(interval):
		}
	}
}

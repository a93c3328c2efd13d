package domain_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/services/registration/internal/domain"
)

var now = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

// holds are live holds of places each, made a minute apart from now-10m on and lapsing at
// the given minutes from now, named by prefix and position: a0, a1, ….
func holds(prefix string, places int, lapseMinutes ...int) []domain.LiveHold {
	out := make([]domain.LiveHold, len(lapseMinutes))
	for i, m := range lapseMinutes {
		out[i] = domain.LiveHold{OrderID: fmt.Sprintf("%s%d", prefix, i), Places: places,
			CreatedAt: now.Add(time.Duration(i-10) * time.Minute), ExpiresAt: now.Add(time.Duration(m) * time.Minute)}
	}
	return out
}

func TestHoldLimitsAdmit(t *testing.T) {
	defaults := &domain.HoldLimits{PerAddress: 33, PerEmail: 22}
	for name, c := range map[string]struct {
		limits           *domain.HoldLimits // nil: 33 per address, 22 per e-mail
		places           int
		byAddress, email []domain.LiveHold
		release          []string
		retryAfter       time.Duration // 0: admitted
		rule             bool
	}{
		"nothing held":             {places: 11},
		"address up to its cap":    {places: 11, byAddress: holds("a", 11, 1, 2), email: holds("e", 11, 1)},
		"address over its cap":     {places: 1, byAddress: holds("a", 11, 3, 2, 4), retryAfter: 2 * time.Minute},
		"e-mail up to its cap":     {places: 11, byAddress: holds("a", 11, 1), email: holds("e", 11, 1)},
		"larger than a cap itself": {places: 23, rule: true},
		"no address cap":           {limits: &domain.HoldLimits{PerEmail: 22}, places: 11, byAddress: holds("a", 11, slices.Repeat([]int{1}, 100)...)},
		"no caps":                  {limits: &domain.HoldLimits{}, places: 40, byAddress: holds("a", 11, 1, 2, 3, 4), email: holds("e", 11, 1, 2, 3)},
		// The e-mail's oldest holds make room for its newest checkout, whoever made them.
		"e-mail over its cap releases its oldest": {places: 2, email: holds("e", 11, 7, 6), release: []string{"e0"}},
		"e-mail releases as many as it takes":     {places: 11, email: holds("e", 5, 9, 8, 7, 6), release: []string{"e0", "e1"}},
		"released holds do not count for address": {places: 11, byAddress: holds("a", 11, 5, 6, 7), email: holds("a", 11, 5, 6), release: []string{"a0"}},
		"the address refuses and nothing goes":    {places: 11, byAddress: holds("a", 11, 5, 6, 7), email: holds("e", 11, 9, 9), retryAfter: 5 * time.Minute},
	} {
		t.Run(name, func(t *testing.T) {
			limits := defaults
			if c.limits != nil {
				limits = c.limits
			}
			release, err := limits.Admit(c.places, c.byAddress, c.email, now)
			switch {
			case c.rule:
				if !errors.Is(err, fault.ErrUnprocessable) {
					t.Fatalf("got %v, want a rule problem", err)
				}
			case c.retryAfter == 0:
				if err != nil || !slices.Equal(release, c.release) {
					t.Fatalf("got release %v, %v; want release %v", release, err, c.release)
				}
			case !isTooManyRequests(err, c.retryAfter) || release != nil:
				t.Fatalf("got %v (release %v), want a refusal to retry after %s", err, release, c.retryAfter)
			}
		})
	}
}

// TestHoldRefusalRetryAfterWaitsForEnoughPlaces: the Retry-After of a refusal is when enough
// of the address's holds will have lapsed for the new one to fit, walking their expiries in
// order, not when the first lapses.
func TestHoldRefusalRetryAfterWaitsForEnoughPlaces(t *testing.T) {
	l := domain.HoldLimits{PerAddress: 33}
	// 1 place lapsing at +2m, 1 at +3m, 11 at +4m, 11 at +9m and 9 at +12m: 33 held.
	full := slices.Concat(holds("s", 1, 2, 3), holds("m", 11, 4, 9), holds("l", 9, 12))
	for name, c := range map[string]struct {
		places int
		held   []domain.LiveHold
		want   time.Duration
	}{
		"one place: the first lapse frees enough":      {1, full, 2 * time.Minute},
		"two places: the second lapse":                 {2, full, 3 * time.Minute},
		"three places: the two small ones are too few": {3, full, 4 * time.Minute},
		"eleven places":                          {11, full, 4 * time.Minute},
		"fourteen places: the 9-minute hold too": {14, full, 9 * time.Minute},
		"in any order":                           {3, []domain.LiveHold{full[4], full[3], full[2], full[1], full[0]}, 4 * time.Minute},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := l.Admit(c.places, c.held, nil, now)
			if !isTooManyRequests(err, c.want) {
				t.Fatalf("got %v, want a refusal to retry after %s", err, c.want)
			}
		})
	}
}

// isTooManyRequests reports whether err refuses a request to be retried after retryAfter.
func isTooManyRequests(err error, retryAfter time.Duration) bool {
	f, ok := fault.Of(err)
	return ok && f.Kind == fault.TooManyRequests && f.RetryAfter == retryAfter
}

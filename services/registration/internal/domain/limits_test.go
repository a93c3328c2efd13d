package domain_test

import (
	"errors"
	"testing"
	"time"

	"github.com/podiumhq/podium/services/registration/internal/domain"
)

func TestHoldLimitsAdmit(t *testing.T) {
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	l := domain.HoldLimits{PerAddress: 33, PerEmail: 22}
	held := func(places int, lapseIn time.Duration) domain.Held {
		return domain.Held{Places: places, FirstLapse: now.Add(lapseIn)}
	}
	for name, c := range map[string]struct {
		places           int
		byAddress, email domain.Held
		retryAfter       time.Duration // 0: admitted
		rule             bool
		noAddressCap     bool
	}{
		"nothing held":             {places: 11},
		"address up to its cap":    {places: 11, byAddress: held(22, time.Minute), email: held(11, time.Minute)},
		"address over its cap":     {places: 1, byAddress: held(33, 90*time.Second), retryAfter: 90 * time.Second},
		"e-mail up to its cap":     {places: 11, byAddress: held(11, time.Minute), email: held(11, time.Minute)},
		"e-mail over its cap":      {places: 2, byAddress: held(2, time.Minute), email: held(21, 7*time.Minute), retryAfter: 7 * time.Minute},
		"address before e-mail":    {places: 1, byAddress: held(33, time.Minute), email: held(22, 5*time.Minute), retryAfter: time.Minute},
		"larger than a cap itself": {places: 23, rule: true},
		"no address cap":           {places: 11, byAddress: held(1000, time.Minute), noAddressCap: true},
	} {
		t.Run(name, func(t *testing.T) {
			l := l
			if c.noAddressCap {
				l.PerAddress = 0
			}
			err := l.Admit(c.places, c.byAddress, c.email, now)
			var tm *domain.TooManyRequestsError
			var re *domain.RuleError
			switch {
			case c.rule:
				if !errors.As(err, &re) {
					t.Fatalf("got %v, want a rule problem", err)
				}
			case c.retryAfter == 0:
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
			case !errors.As(err, &tm) || tm.RetryAfter != c.retryAfter:
				t.Fatalf("got %v, want a refusal to retry after %s", err, c.retryAfter)
			}
		})
	}
}

func TestRetryAfterSeconds(t *testing.T) {
	for d, want := range map[time.Duration]int{0: 1, -time.Second: 1, time.Millisecond: 1, time.Second: 1, 1001 * time.Millisecond: 2, 10 * time.Minute: 600} {
		if got := (&domain.TooManyRequestsError{RetryAfter: d}).RetryAfterSeconds(); got != want {
			t.Errorf("%s: %d, want %d", d, got, want)
		}
	}
}

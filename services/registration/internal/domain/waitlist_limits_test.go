package domain_test

import (
	"errors"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/services/registration/internal/domain"
)

func TestWaitlistLimitsAdmit(t *testing.T) {
	start := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	l := domain.WaitlistLimits{Active: 3, PerHour: 2}
	full := domain.EmailJoins{WindowStart: start, Joins: 2}

	j, err := l.Admit(domain.EmailJoins{WindowStart: start, Joins: 1}, 1, start.Add(time.Minute))
	if err != nil || j != full {
		t.Fatalf("second join: %+v, %v", j, err)
	}
	_, err = l.Admit(full, 2, start.Add(45*time.Minute))
	var f *fault.Error
	if !errors.As(err, &f) || f.Kind != fault.TooManyRequests || f.RetryAfter != 15*time.Minute {
		t.Fatalf("third join in the hour: %v, want 429 after 15m", err)
	}
	if j, err := l.Admit(full, 2, start.Add(time.Hour)); err != nil || j != (domain.EmailJoins{WindowStart: start.Add(time.Hour), Joins: 1}) {
		t.Fatalf("join when the hour ends: %+v, %v; want a new window", j, err)
	}
	if _, err := l.Admit(domain.EmailJoins{WindowStart: start}, 3, start); !errors.Is(err, fault.ErrConflict) {
		t.Fatalf("join at the active cap: %v, want 409", err)
	}
	if j, err := (domain.WaitlistLimits{}).Admit(full, 99, start); err != nil || j.Joins != 3 {
		t.Fatalf("no caps: %+v, %v", j, err)
	}
}

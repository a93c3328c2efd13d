package domain_test

import (
	"testing"
	"time"

	"github.com/podiumhq/podium/services/auth/internal/domain"
)

func TestLifetimeReadsForPeople(t *testing.T) {
	for d, want := range map[time.Duration]string{
		15 * time.Minute: "15 minutes", time.Minute: "1 minute", time.Hour: "1 hour",
		12 * time.Hour: "12 hours", 90 * time.Minute: "90 minutes",
	} {
		if got := domain.Lifetime(d); got != want {
			t.Errorf("Lifetime(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestTokensAreLongRandomAndStoredAsHashes(t *testing.T) {
	a, b := domain.NewToken(), domain.NewToken()
	if len(a) != domain.TokenLen || a == b {
		t.Fatalf("tokens %q and %q", a, b)
	}
	if h := domain.HashToken(a); len(h) != 64 || h == a || h == domain.CSRFToken(a) {
		t.Fatalf("hash %q, CSRF token %q of %q", h, domain.CSRFToken(a), a)
	}
}

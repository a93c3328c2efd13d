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

func TestSignInLimits(t *testing.T) {
	l := domain.SignInLimits{PerBrowser: 3, PerEmail: 5, PerNetwork: 20}
	cases := []struct {
		name string
		d    domain.SignInDemand
		want bool
	}{
		{"first request", domain.SignInDemand{}, true},
		{"the browser's last link", domain.SignInDemand{ByBrowser: 2, ByEmail: 4, ByNetwork: 19}, true},
		{"the browser's budget spent", domain.SignInDemand{ByBrowser: 3}, false},
		{"the address's links spent by other browsers", domain.SignInDemand{ByEmail: 5}, false},
		{"the network's links spent", domain.SignInDemand{ByNetwork: 20}, false},
		{"a known browser while strangers spent the address's and network's links",
			domain.SignInDemand{ByEmail: 500, ByNetwork: 500, KnownBrowser: true}, true},
		{"a known browser past its own budget", domain.SignInDemand{ByBrowser: 3, KnownBrowser: true}, false},
	}
	for _, c := range cases {
		if got := l.Allows(c.d); got != c.want {
			t.Errorf("%s: Allows(%+v) = %v, want %v", c.name, c.d, got, c.want)
		}
	}
}

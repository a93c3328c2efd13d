package domain_test

import (
	"strings"
	"testing"
	"time"

	"github.com/podiumhq/podium/services/auth/internal/domain"
)

// TestAKnownBrowserMarkerVouchesForItsBrowserOnlyUntilItExpires: a marker names its address for
// the browser it was made for, with the key that made it, until its expiry; any change to it,
// another browser, another key or a later time makes it vouch for nothing.
func TestAKnownBrowserMarkerVouchesForItsBrowserOnlyUntilItExpires(t *testing.T) {
	key := []byte("a-console-cookie-key-of-32-bytes!")
	browser, email := domain.HashToken(domain.NewToken()), domain.HashToken("owner@acme.test")
	now := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	marker := domain.KnownBrowserMarker(key, browser, email, now.Add(time.Hour))
	if got, ok := domain.KnownBrowser(key, marker, browser, now); !ok || got != email {
		t.Fatalf("the marker as issued: %q %v, want %q", got, ok, email)
	}
	exp, rest, _ := strings.Cut(marker, ".")
	later := domain.KnownBrowserMarker(key, browser, email, now.Add(2*time.Hour))
	other := domain.HashToken("admin@acme.test")
	for name, c := range map[string]struct {
		key             []byte
		marker, browser string
		at              time.Time
	}{
		"expired":                {key, marker, browser, now.Add(time.Hour)},
		"another browser":        {key, marker, domain.HashToken(domain.NewToken()), now},
		"another key":            {[]byte("another-console-cookie-key-32-by"), marker, browser, now},
		"a later expiry":         {key, strings.SplitN(later, ".", 2)[0] + "." + rest, browser, now.Add(90 * time.Minute)},
		"another address":        {key, exp + "." + other + rest[len(email):], browser, now},
		"a changed MAC":          {key, marker[:len(marker)-1] + string(marker[len(marker)-1]^1), browser, now},
		"no MAC":                 {key, exp + "." + email, browser, now},
		"empty":                  {key, "", browser, now},
		"too long":               {key, marker + strings.Repeat("A", 200), browser, now},
		"a zero byte in a field": {key, exp + "\x00." + email + rest[len(email):], browser, now},
	} {
		if got, ok := domain.KnownBrowser(c.key, c.marker, c.browser, c.at); ok {
			t.Errorf("%s: the marker vouches for %q", name, got)
		}
	}
}

package store_test

import (
	"errors"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/auth/internal/adapters/store"
	"github.com/podiumhq/podium/services/auth/internal/authtest"
	"github.com/podiumhq/podium/services/auth/internal/domain"
)

var errOverLimit = errors.New("over the limit")

// TestASecondRequestCountsAfterTheFirstIsStored holds a first request for a link between its
// count and its insert, starts a second for the same e-mail, and lets the first go only once
// the second waits for the demand's lock or has finished: with a limit of one link, exactly one
// is stored.
func TestASecondRequestCountsAfterTheFirstIsStored(t *testing.T) {
	pool := authtest.Pool(t)
	repo := store.New(pool)
	at := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	ask := func(address string, counted func()) chan error {
		done := make(chan error, 1)
		go func() {
			l := domain.SignInLink{
				TokenHash: domain.HashToken(domain.NewToken()), Email: "ana@example.com", BrowserHash: "b",
				Address: address, CreatedAt: at, ExpiresAt: at.Add(time.Minute),
			}
			done <- repo.CreateSignInLink(t.Context(), l, at.Add(-time.Hour), func(d domain.SignInDemand) error {
				counted()
				if d.ByEmail >= 1 {
					return errOverLimit
				}
				return nil
			})
		}()
		return done
	}
	firstCounted, release := make(chan struct{}), make(chan struct{})
	first := ask("203.0.113.1", func() { close(firstCounted); <-release })
	<-firstCounted
	second := ask("203.0.113.2", func() {})
	var secondErr error
	secondDone := false
	testkit.Eventually(t, 10*time.Second, func() string {
		select {
		case secondErr = <-second:
			secondDone = true
			return ""
		default:
		}
		var waiting bool
		err := pool.QueryRow(t.Context(), `SELECT EXISTS (SELECT 1 FROM pg_stat_activity
			WHERE wait_event_type = 'Lock' AND wait_event = 'advisory' AND datname = current_database())`).Scan(&waiting)
		if err != nil {
			t.Fatal(err)
		}
		if !waiting {
			return "the second request neither waits for the lock nor has finished"
		}
		return ""
	})
	close(release)
	if err := <-first; err != nil {
		t.Fatalf("first request: %v", err)
	}
	if !secondDone {
		secondErr = <-second
	}
	if !errors.Is(secondErr, errOverLimit) {
		t.Fatalf("second request: %v, want it refused over the limit", secondErr)
	}
}

func TestALinkIsUsedOnceByItsBrowserAndExpiredRowsAreDeleted(t *testing.T) {
	repo := store.New(authtest.Pool(t))
	at := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	l := domain.SignInLink{TokenHash: "t1", Email: "ana@example.com", BrowserHash: "mine", Address: "a", CreatedAt: at, ExpiresAt: at.Add(time.Minute)}
	allow := func(domain.SignInDemand) error { return nil }
	if err := repo.CreateSignInLink(t.Context(), l, at, allow); err != nil {
		t.Fatal(err)
	}
	if _, err := repo.UseSignInLink(t.Context(), "t1", "theirs", at); !errors.Is(err, domain.ErrSignInLinkOtherBrowser) {
		t.Fatalf("another browser: %v", err)
	}
	if _, err := repo.UseSignInLink(t.Context(), "t1", "mine", at.Add(time.Minute)); !errors.Is(err, domain.ErrSignInLinkInvalid) {
		t.Fatalf("at its expiry: %v", err)
	}
	used, err := repo.UseSignInLink(t.Context(), "t1", "mine", at.Add(time.Second))
	if err != nil || used.Email != "ana@example.com" {
		t.Fatalf("first use: %+v %v", used, err)
	}
	if _, err := repo.UseSignInLink(t.Context(), "t1", "mine", at.Add(2*time.Second)); !errors.Is(err, domain.ErrSignInLinkInvalid) {
		t.Fatalf("second use: %v", err)
	}

	s := domain.Session{ID: "ses_1", TokenHash: "s1", Email: "ana@example.com", CreatedAt: at, LastSeenAt: at, ExpiresAt: at.Add(time.Hour)}
	if err := repo.CreateSession(t.Context(), s); err != nil {
		t.Fatal(err)
	}
	links, sessions, err := repo.DeleteExpired(t.Context(), at, at.Add(time.Hour))
	if err != nil || links != 0 || sessions != 0 {
		t.Fatalf("nothing expired yet: %d %d %v", links, sessions, err)
	}
	links, sessions, err = repo.DeleteExpired(t.Context(), at.Add(time.Microsecond), at.Add(time.Hour+time.Microsecond))
	if err != nil || links != 1 || sessions != 1 {
		t.Fatalf("deleted %d links and %d sessions (%v), want 1 and 1", links, sessions, err)
	}
	if _, err := repo.SessionByTokenHash(t.Context(), "s1"); !errors.Is(err, domain.ErrSessionInvalid) {
		t.Fatalf("deleted session: %v", err)
	}
}

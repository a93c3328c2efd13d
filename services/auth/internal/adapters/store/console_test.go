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

// TestASecondRequestCountsAfterTheFirstIsStored holds a first request for a link between its
// count and its insert, starts a second for the same e-mail, and lets the first go only once
// the second waits for the demand's lock or has finished: with a limit of one link, exactly one
// is stored.
func TestASecondRequestCountsAfterTheFirstIsStored(t *testing.T) {
	pool := authtest.Pool(t)
	repo := store.New(pool)
	at := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	type answer struct {
		created bool
		err     error
	}
	ask := func(network, browser string, counted func()) chan answer {
		done := make(chan answer, 1)
		go func() {
			l := domain.SignInLink{
				TokenHash: domain.HashToken(domain.NewToken()), Email: "ana@example.com", BrowserHash: browser,
				Network: network, CreatedAt: at, ExpiresAt: at.Add(time.Minute),
			}
			created, err := repo.CreateSignInLink(t.Context(), l, at.Add(-time.Hour), func(d domain.SignInDemand) bool {
				counted()
				return d.ByEmail < 1
			})
			done <- answer{created, err}
		}()
		return done
	}
	firstCounted, release := make(chan struct{}), make(chan struct{})
	first := ask("203.0.113.1", "b1", func() { close(firstCounted); <-release })
	<-firstCounted
	second := ask("203.0.113.2", "b2", func() {})
	var secondAnswer answer
	secondDone := false
	testkit.Eventually(t, 10*time.Second, func() string {
		select {
		case secondAnswer = <-second:
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
	if a := <-first; a.err != nil || !a.created {
		t.Fatalf("first request: %+v", a)
	}
	if !secondDone {
		secondAnswer = <-second
	}
	if secondAnswer.err != nil || secondAnswer.created {
		t.Fatalf("second request: %+v, want it counted after the first and refused", secondAnswer)
	}
}

func TestALinkIsUsedOnceByItsBrowserAndExpiredRowsAreDeleted(t *testing.T) {
	repo := store.New(authtest.Pool(t))
	at := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	l := domain.SignInLink{TokenHash: "t1", Email: "ana@example.com", BrowserHash: "mine", Network: "a", CreatedAt: at, ExpiresAt: at.Add(time.Minute)}
	allow := func(domain.SignInDemand) bool { return true }
	if created, err := repo.CreateSignInLink(t.Context(), l, at, allow); err != nil || !created {
		t.Fatal(created, err)
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

	s := domain.Session{ID: "ses_1", TokenHash: "s1", Email: "ana@example.com", BrowserHash: "mine", CreatedAt: at, LastSeenAt: at, ExpiresAt: at.Add(time.Hour)}
	if err := repo.CreateSession(t.Context(), s); err != nil {
		t.Fatal(err)
	}
	d, err := repo.DeleteExpired(t.Context(), at, at.Add(time.Hour), at)
	if err != nil || d != (domain.Deleted{}) {
		t.Fatalf("nothing expired yet: %+v %v", d, err)
	}
	d, err = repo.DeleteExpired(t.Context(), at.Add(time.Microsecond), at.Add(time.Hour+time.Microsecond), at.Add(time.Microsecond))
	if err != nil || d != (domain.Deleted{Links: 1, Sessions: 1, Browsers: 1}) {
		t.Fatalf("deleted %+v (%v), want a link, a session and a browser", d, err)
	}
	if _, err := repo.SessionByTokenHash(t.Context(), "s1"); !errors.Is(err, domain.ErrSessionInvalid) {
		t.Fatalf("deleted session: %v", err)
	}
}

// TestDemandCountsPerBrowserAndKnowsTheBrowsersThatSignedIn: the demand on a request counts its
// browser's links for the e-mail apart from the others', and a browser is known once it opened
// a session as the e-mail.
func TestDemandCountsPerBrowserAndKnowsTheBrowsersThatSignedIn(t *testing.T) {
	repo := store.New(authtest.Pool(t))
	at := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	ask := func(browser, network string) domain.SignInDemand {
		t.Helper()
		var seen domain.SignInDemand
		l := domain.SignInLink{TokenHash: domain.NewToken(), Email: "ana@example.com", BrowserHash: browser, Network: network, CreatedAt: at, ExpiresAt: at.Add(time.Minute)}
		if _, err := repo.CreateSignInLink(t.Context(), l, at.Add(-time.Hour), func(d domain.SignInDemand) bool { seen = d; return true }); err != nil {
			t.Fatal(err)
		}
		return seen
	}
	ask("stranger", "198.51.100.1")
	ask("stranger", "198.51.100.2")
	if d := ask("mine", "203.0.113.1"); d != (domain.SignInDemand{ByBrowser: 0, ByEmail: 2, ByNetwork: 0}) {
		t.Fatalf("demand on the member's browser: %+v", d)
	}
	s := domain.Session{ID: "ses_1", TokenHash: "s1", Email: "ana@example.com", BrowserHash: "mine", CreatedAt: at, LastSeenAt: at, ExpiresAt: at.Add(time.Hour)}
	if err := repo.CreateSession(t.Context(), s); err != nil {
		t.Fatal(err)
	}
	if d := ask("mine", "198.51.100.1"); d != (domain.SignInDemand{ByBrowser: 1, ByEmail: 3, ByNetwork: 1, KnownBrowser: true}) {
		t.Fatalf("demand on the member's browser after it signed in: %+v", d)
	}
	if d := ask("stranger", "198.51.100.1"); d.KnownBrowser || d.ByBrowser != 2 {
		t.Fatalf("demand on the stranger's browser: %+v", d)
	}
}

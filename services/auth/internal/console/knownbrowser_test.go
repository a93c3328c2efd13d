package console_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/podiumhq/podium/services/auth/internal/authtest"
	"github.com/podiumhq/podium/services/auth/internal/domain"
)

// TestAKnownBrowserSpendsItsOwnRateNotItsNetworks: a stranger on the owner's network (an office's
// NAT) spends the network's rate of sign-in requests. The owner's browser, which signed in
// before, still asks for its link, opens and uses it: its marker lets it spend its own rate
// instead, which then binds it. A marker moved to another browser, made with another key,
// expired, or asked with for another address lets nothing through.
func TestAKnownBrowserSpendsItsOwnRateNotItsNetworks(t *testing.T) {
	const perMinute = 3
	env := authtest.Start(t, authtest.Options{SignInRequestsPerMinute: perMinute})
	env.Clock.Set(time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)) // stopped: no rate refills unless moved
	acme := newOrg(t, env, "Acme Races", "acme.test")
	laptop := newBrowser(t, env)
	laptop.signIn(acme.owner)
	env.Clock.Advance(authtest.SessionTTL) // the session is over; the browser is the same

	stranger := newBrowser(t, env)
	stranger.address = laptop.address
	stranger.get("/signin")
	for i := range perMinute {
		if a := stranger.send(acme.owner); a.status != http.StatusOK {
			t.Fatalf("the stranger's request %d: %+v", i+1, a)
		}
	}
	if a := stranger.send(acme.owner); a.status != http.StatusTooManyRequests {
		t.Fatalf("the stranger past the network's rate: %+v, want 429", a)
	}

	mailed(env, acme.owner) // the stranger's links are sent before the owner asks for theirs
	link := laptop.askLink(acme.owner)
	if p := laptop.get(link); p.status != http.StatusOK {
		t.Fatalf("the owner opens their link on a spent network: %d %s", p.status, p.body)
	}
	if p := laptop.post(link, nil); p.status != http.StatusSeeOther {
		t.Fatalf("the owner signs in on a spent network: %d %s", p.status, p.body)
	}
	if a := laptop.send(acme.owner); a.status != http.StatusTooManyRequests {
		t.Fatalf("the owner's browser past its own rate: %+v, want 429", a)
	}

	marker := laptop.cookies["__Host-podium-known"]
	if marker == "" {
		t.Fatal("signing in gave the browser no marker")
	}
	key := []byte(authtest.CookieKey)
	for name, mark := range map[string]func(binding string) string{
		"the owner's marker on another browser": func(string) string { return marker },
		"a marker made with another key": func(binding string) string {
			return domain.KnownBrowserMarker([]byte("not-the-console-cookie-key-0123456789"), domain.HashToken(binding), domain.HashToken(acme.owner), env.Clock.Now().Add(time.Hour))
		},
		"an expired marker": func(binding string) string {
			return domain.KnownBrowserMarker(key, domain.HashToken(binding), domain.HashToken(acme.owner), env.Clock.Now())
		},
		"a marker of another address": func(binding string) string {
			return domain.KnownBrowserMarker(key, domain.HashToken(binding), domain.HashToken(acme.admin), env.Clock.Now().Add(time.Hour))
		},
	} {
		b := newBrowser(t, env)
		b.address = laptop.address
		b.get("/signin")
		b.cookies["__Host-podium-known"] = mark(b.cookies["__Host-podium-browser"])
		if a := b.send(acme.owner); a.status != http.StatusTooManyRequests {
			t.Fatalf("%s on the spent network: %+v, want 429", name, a)
		}
	}
	// The same construction with the console's key, for this browser, unexpired, gets through.
	b := newBrowser(t, env)
	b.address = laptop.address
	b.get("/signin")
	b.cookies["__Host-podium-known"] = domain.KnownBrowserMarker(key, domain.HashToken(b.cookies["__Host-podium-browser"]), domain.HashToken(acme.owner), env.Clock.Now().Add(time.Hour))
	if a := b.send(acme.owner); a.status != http.StatusOK {
		t.Fatalf("a marker made as the console makes them, on the spent network: %+v, want 200", a)
	}
}

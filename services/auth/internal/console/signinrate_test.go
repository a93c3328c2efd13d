package console_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/podiumhq/podium/services/auth/internal/authtest"
	"github.com/podiumhq/podium/services/auth/internal/domain"
)

// linkLookups counts the statements of the service that read a sign-in link by its token: one
// for each opening or use of a junk link that reached the database.
type linkLookups struct{ n atomic.Int64 }

func (l *linkLookups) TraceQueryStart(ctx context.Context, _ *pgx.Conn, d pgx.TraceQueryStartData) context.Context {
	if strings.Contains(d.SQL, "-- name: GetSignInLink ") {
		l.n.Add(1)
	}
	return ctx
}

func (*linkLookups) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

// TestOpeningAndUsingLinksIsBoundedPerNetwork: a stranger opens and uses 200 junk sign-in links
// from one network, whose rate is 5 a minute. Only 5 of them reach the database; the others are
// refused (429, Retry-After) before it. Meanwhile a member signs in through an operator's link
// on a new device, and the owner from their own browser, each on a network of its own.
func TestOpeningAndUsingLinksIsBoundedPerNetwork(t *testing.T) {
	const perMinute, flood = 5, 200
	lookups := &linkLookups{}
	env := authtest.Start(t, authtest.Options{SignInRequestsPerMinute: perMinute, PoolTracer: lookups})
	env.Clock.Set(time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)) // stopped: no network's rate refills during the flood
	acme := newOrg(t, env, "Acme Races", "acme.test")
	laptop := newBrowser(t, env)
	laptop.signIn(acme.owner)
	env.Clock.Advance(time.Minute) // the laptop's network has its rate again

	stranger := newBrowser(t, env)
	stranger.address = "198.51.100.66"
	stranger.get("/signin") // a binding and its form's token; no database work
	before := lookups.n.Load()
	refused := 0
	for i := range flood {
		junk := "/signin/" + domain.NewToken()
		var a floodAnswer
		if i%2 == 0 {
			a = stranger.fetch(http.MethodGet, junk, nil)
		} else {
			a = stranger.fetch(http.MethodPost, junk, url.Values{"csrf": {stranger.csrf}})
		}
		switch {
		case a.err != nil:
			t.Fatal(a.err)
		case a.status == http.StatusTooManyRequests && a.code == "rate_limited" && a.retryAfter != "":
			refused++
		case a.status != http.StatusGone || a.code != "signin_link_invalid":
			t.Fatalf("junk link %d: %+v, want 410 signin_link_invalid or 429 rate_limited", i, a)
		}
	}
	if n := lookups.n.Load() - before; refused != flood-perMinute || n != perMinute {
		t.Fatalf("%d of %d junk links refused and %d looked up, want %d refused and %d looked up", refused, flood, n, flood-perMinute, perMinute)
	}

	r := env.Admin(t, http.MethodPost, "/admin/sign-in-links", map[string]any{"email": acme.admin})
	if r.Status != http.StatusCreated {
		t.Fatalf("operator link: %d %s", r.Status, r.Raw)
	}
	operatorLink := strings.TrimPrefix(r.Body["url"].(string), env.ConsoleURL)
	phone := newBrowser(t, env)
	phone.address = "192.0.2.40"
	if p := phone.get(operatorLink); p.status != http.StatusOK {
		t.Fatalf("a member opens an operator's link during the flood: %d %s", p.status, p.body)
	}
	if p := phone.post(operatorLink, nil); p.status != http.StatusSeeOther {
		t.Fatalf("a member uses an operator's link during the flood: %d %s", p.status, p.body)
	}
	link := laptop.askLink(acme.owner)
	if p := laptop.get(link); p.status != http.StatusOK {
		t.Fatalf("the owner opens their link during the flood: %d %s", p.status, p.body)
	}
	if p := laptop.post(link, nil); p.status != http.StatusSeeOther {
		t.Fatalf("the owner signs in during the flood: %d %s", p.status, p.body)
	}
}

// TestAnIPv6SiteSharesItsNetworksRate: each /64 of one /48 has its own rate (2 a minute here),
// and the /48 as a whole 8 times that: the site's 17th request, from a 17th /64, is refused,
// while another /48 is not.
func TestAnIPv6SiteSharesItsNetworksRate(t *testing.T) {
	const perMinute, site = 2, 8 * 2
	env := authtest.Start(t, authtest.Options{SignInRequestsPerMinute: perMinute})
	env.Clock.Set(time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)) // stopped
	ask := func(address string) floodAnswer {
		t.Helper()
		b := newBrowser(t, env)
		b.address = address
		b.get("/signin")
		return b.send("nobody@elsewhere.test")
	}
	for i := range site {
		if a := ask(fmt.Sprintf("2001:db8:7:%x::1", i)); a.status != http.StatusOK {
			t.Fatalf("request %d of the site, from a /64 of its own: %+v", i+1, a)
		}
	}
	if a := ask("2001:db8:7:ffff::1"); a.status != http.StatusTooManyRequests || a.code != "rate_limited" || a.retryAfter == "" {
		t.Fatalf("the site's request past its rate, from another /64: %+v, want 429 rate_limited", a)
	}
	for i := range perMinute {
		if a := ask(fmt.Sprintf("2001:db8:8:1::%x", i+1)); a.status != http.StatusOK {
			t.Fatalf("request %d of another site's /64: %+v", i+1, a)
		}
	}
	if a := ask("2001:db8:8:1::ff"); a.status != http.StatusTooManyRequests {
		t.Fatalf("a /64 past its own rate: %+v, want 429", a)
	}
}

package app

import (
	"context"
	"crypto/subtle"
	"fmt"
	"sync"
	"time"

	"github.com/hashicorp/golang-lru/v2/simplelru"
	"golang.org/x/sync/semaphore"
	"golang.org/x/time/rate"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/auth/internal/domain"
)

// Anyone may reach the console without an account: what a visitor asks is bounded before it
// reaches the database. Each request for, opening or use of a sign-in link passes its client's
// rate limits first (admitSignIn), and every console request that needs the database takes one
// of the places of the console's own pool, waiting a moment at most: a flood is answered 503 at
// once rather than queued until its deadline, and the API's pool (key verification, the admin
// API) is never the console's.

// maxLimitedSubjects bounds how many subjects (networks, sites, known browsers) the sign-in
// request limits remember (the least recently seen are forgotten first): tens of megabytes at
// most. Forgetting one gives it a full burst again, which only a client with that many
// networks of its own can bring about.
const maxLimitedSubjects = 100_000

// siteShare is how many times a network's rate the IPv6 /48 around it may use: one site's
// allocation (65,536 /64s) shares it, so its /64s cannot each take a full budget.
const siteShare = 8

// placeWait is the longest a console request waits for one of the console's places; past it
// the request is answered 503 with Retry-After placeRetryAfter.
const (
	placeWait       = 100 * time.Millisecond
	placeRetryAfter = time.Second
)

// errConsoleBusy answers a request that found every place of the console taken.
var errConsoleBusy = &fault.Error{
	Kind: fault.Unavailable, Problems: []string{"the console is busy: try again in a moment"}, RetryAfter: placeRetryAfter,
}

// errTooManySignInRequests refuses a sign-in request from a network past its rate; the answer
// depends on the network only, never on the e-mail or the link.
func errTooManySignInRequests(retryAfter time.Duration) error {
	return fault.NewTooManyRequests("too many sign-in requests came from your network: wait a moment and try again", retryAfter)
}

// Visitor is a console request as the console knows it before any database work.
type Visitor struct {
	// Address is the client's address (behind the trusted proxies).
	Address string
	// Browser is the browser's binding, "" for none, and Marker its known-browser marker, ""
	// for none (KnownBrowserMarker).
	Browser, Marker string
}

// admitSignIn takes one sign-in request (asking for, opening or using a link) of v from its
// client's budgets, or refuses it (fault.TooManyRequests) before any database work. A known
// browser, whose marker says it signed in as an address knownAs accepts, spends its own budget
// only: no stranger on its network can spend it. Any other spends its network's (an IPv4
// address, an IPv6 /64) and, for IPv6, its /48's, siteShare times as large.
func (c *Console) admitSignIn(v Visitor, knownAs func(emailHash string) bool) error {
	now := c.svc.clock.Now()
	var budgets []budget
	if browser, ok := c.knownBrowser(v, now, knownAs); ok {
		budgets = []budget{{subject: "browser " + browser, perMinute: c.cfg.SignInRequestsPerMinute}}
	} else {
		network := identity.ClientNetwork(v.Address)
		budgets = []budget{{subject: "network " + network, perMinute: c.cfg.SignInRequestsPerMinute}}
		if site := identity.ClientPrefix(v.Address, 48); site != network {
			budgets = append(budgets, budget{subject: "site " + site, perMinute: siteShare * c.cfg.SignInRequestsPerMinute})
		}
	}
	if wait, ok := c.signInRequests.allow(now, budgets...); !ok {
		return errTooManySignInRequests(wait)
	}
	return nil
}

// knownBrowser returns the hash of v's browser binding if v's marker, made by the console for
// that browser and unexpired at now, names an address knownAs accepts.
func (c *Console) knownBrowser(v Visitor, now time.Time, knownAs func(emailHash string) bool) (string, bool) {
	if len(v.Browser) != domain.TokenLen || v.Marker == "" {
		return "", false
	}
	browser := domain.HashToken(v.Browser)
	emailHash, ok := domain.KnownBrowser(c.cfg.CookieKey, v.Marker, browser, now)
	return browser, ok && knownAs(emailHash)
}

// anyAddress accepts the marker of a browser known as anyone: opening and using a link, which
// name no address before the database is read.
func anyAddress(string) bool { return true }

// isAddress returns what accepts the marker of a browser known as email only (a valid
// address, normalised), or of none when problem says email is not one.
func isAddress(email, problem string) func(string) bool {
	want := domain.HashToken(email)
	return func(emailHash string) bool {
		return problem == "" && subtle.ConstantTimeCompare([]byte(emailHash), []byte(want)) == 1
	}
}

// KnownBrowserMarker is the marker that makes the browser with binding browser known as one that
// signed in as email, for domain.BrowserBindingTTL from now: set at sign-in, and renewed with
// the binding whenever the session's use is recorded.
func (c *Console) KnownBrowserMarker(browser, email string) string {
	return domain.KnownBrowserMarker(c.cfg.CookieKey, domain.HashToken(browser), domain.HashToken(email), c.svc.clock.Now().Add(domain.BrowserBindingTTL))
}

// budget is the rate of a subject's requests: perMinute a minute, in bursts of as many.
type budget struct {
	subject   string
	perMinute int
}

// requestLimiter bounds the requests of each subject by its budget, at the times its callers
// give.
type requestLimiter struct {
	mu        sync.Mutex
	bySubject *simplelru.LRU[string, *rate.Limiter]
}

func newRequestLimiter() *requestLimiter {
	bySubject, err := simplelru.NewLRU[string, *rate.Limiter](maxLimitedSubjects, nil)
	if err != nil {
		panic(err) // only a size below one fails
	}
	return &requestLimiter{bySubject: bySubject}
}

// allow takes one request at now from every budget, or none when one of them has nothing left,
// reporting then how long until all of them have.
func (l *requestLimiter) allow(now time.Time, budgets ...budget) (time.Duration, bool) {
	var wait time.Duration
	taken := make([]*rate.Reservation, 0, len(budgets))
	for _, b := range budgets {
		r := l.limiter(b).ReserveN(now, 1)
		taken = append(taken, r)
		wait = max(wait, r.DelayFrom(now))
	}
	if wait == 0 {
		return 0, true
	}
	for _, r := range taken {
		r.CancelAt(now)
	}
	return wait, false
}

// limiter returns b's subject's limiter, made for b's rate when it has none.
func (l *requestLimiter) limiter(b budget) *rate.Limiter {
	l.mu.Lock()
	defer l.mu.Unlock()
	lim, ok := l.bySubject.Get(b.subject)
	if !ok {
		perMinute := max(b.perMinute, 1)
		lim = rate.NewLimiter(rate.Every(time.Minute/time.Duration(perMinute)), perMinute)
		l.bySubject.Add(b.subject, lim)
	}
	return lim
}

// Hold takes one of the console's places (ConsoleConfig.DBConns, the size of its pool) for a
// request's database work, and returns what gives it back. It waits placeWait at most: a
// request that finds every place taken for longer is answered 503 with Retry-After, so a flood
// sheds itself instead of holding everyone's requests until their deadline.
func (c *Console) Hold(ctx context.Context) (release func(), err error) {
	wait, cancel := context.WithTimeout(ctx, placeWait)
	defer cancel()
	if err := c.places.Acquire(wait, 1); err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("wait for a console place: %w", ctx.Err())
		}
		return nil, errConsoleBusy
	}
	return sync.OnceFunc(func() { c.places.Release(1) }), nil
}

// withPlace runs fn, database work, holding one of the console's places (Hold).
func (c *Console) withPlace(ctx context.Context, fn func() error) error {
	release, err := c.Hold(ctx)
	if err != nil {
		return err
	}
	defer release()
	return fn()
}

func newPlaces(n int) *semaphore.Weighted { return semaphore.NewWeighted(int64(max(n, 1))) }

package app

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"golang.org/x/sync/semaphore"

	"github.com/podiumhq/podium/libs/mail"
	"github.com/podiumhq/podium/services/auth/internal/domain"
)

// ConsoleRepository stores the console's sign-in links and sessions and answers who belongs
// where. Reads of keys and members are scoped by organizer id.
type ConsoleRepository interface {
	// CreateSignInLink stores l, and reports true, unless allow refuses the demand since the
	// given time; concurrent requests are counted one after the other, and a refused one stores
	// nothing.
	CreateSignInLink(ctx context.Context, l domain.SignInLink, since time.Time, allow func(domain.SignInDemand) bool) (bool, error)
	// UseSignInLink marks a valid link of this browser (or of none) used and returns it; see
	// domain.ErrSignInLinkInvalid and domain.ErrSignInLinkOtherBrowser.
	UseSignInLink(ctx context.Context, tokenHash, browserHash string, at time.Time) (domain.SignInLink, error)
	// SignInLink returns the link with tokenHash, or domain.ErrSignInLinkInvalid.
	SignInLink(ctx context.Context, tokenHash string) (domain.SignInLink, error)
	// CreateSession stores s and remembers its browser (s.BrowserHash, unless empty) as one
	// that signed in as s.Email.
	CreateSession(ctx context.Context, s domain.Session) error
	// SessionByTokenHash returns the session, inactive ones included, or domain.ErrSessionInvalid.
	SessionByTokenHash(ctx context.Context, tokenHash string) (domain.Session, error)
	// TouchSession records a use of the session, unless it is revoked, and with it remembers
	// the session's browser as seen at that time while its e-mail is a member.
	TouchSession(ctx context.Context, id, address string, at time.Time) error
	// Sessions returns the active sessions of email.
	Sessions(ctx context.Context, email string, at time.Time) ([]domain.Session, error)
	// RevokeSession revokes a session of email and forgets the browser it was opened in, or
	// returns domain.ErrSessionInvalid.
	RevokeSession(ctx context.Context, email, id string, at time.Time) error
	// DeleteExpired deletes links asked before linksBefore, sessions expired before
	// sessionsBefore and browsers last seen before browsersBefore.
	DeleteExpired(ctx context.Context, linksBefore, sessionsBefore, browsersBefore time.Time) (domain.Deleted, error)
	Memberships(ctx context.Context, email string) ([]domain.Membership, error)
	// Membership returns email's membership of the organizer, or domain.ErrOrganizerNotFound.
	Membership(ctx context.Context, email, organizerID string) (domain.Membership, error)
	// OrganizerKey and OrganizerMember return one of the organizer's keys or members, or
	// not-found (for another organizer's too).
	OrganizerKey(ctx context.Context, organizerID, id string) (domain.Key, error)
	OrganizerMember(ctx context.Context, organizerID, id string) (domain.Member, error)
}

// Mailer sends one e-mail.
type Mailer interface {
	Send(ctx context.Context, m mail.Message) error
}

// ConsoleConfig holds the console's public address, lifetimes and sign-in limits.
type ConsoleConfig struct {
	// URL is the console's public origin, without a trailing slash.
	URL string
	// LinkTTL is a sign-in link's lifetime, SessionTTL a session's.
	LinkTTL, SessionTTL time.Duration
	// Window is the span of the sign-in limits: at most Limits links within any Window.
	Window time.Duration
	Limits domain.SignInLimits
	// SignInRequestsPerMinute bounds the sign-in requests (asking for, opening and using links)
	// one client network makes a minute, in bursts of as many; past it a request is refused
	// before any database work.
	SignInRequestsPerMinute int
	// DBConns is the size of the console's own database pool, which none but the console
	// uses: its requests that need the database take one of as many places (Hold).
	DBConns int
	// CookieKey makes and checks the known-browser markers (domain.KnownBrowserMarker).
	CookieKey []byte
}

// Console runs the organizers' console: passwordless sign-in, sessions, and the keys, members
// and audit log of the organizations the signed-in person belongs to, each change allowed by
// their role there.
type Console struct {
	svc  *Service
	repo ConsoleRepository
	mail Mailer
	// hooks is the webhooks service, nil where the console has none (the admin API's).
	hooks Webhooks
	// reg is the registration service (the test-data tools), nil where the console has none.
	reg Registration
	cfg ConsoleConfig
	log *slog.Logger
	// sends tracks the e-mails being sent in the background, for Close.
	sends sync.WaitGroup
	// signInRequests limits each client's sign-in requests; places are the connections of the
	// console's pool its requests hold (consoleload.go).
	signInRequests *requestLimiter
	places         *semaphore.Weighted
}

// NewConsole returns the console over svc (whose clock it shares) and repo, which are the
// console's own: on a pool that serves the console only (ConsoleConfig.DBConns). hooks, which
// may be nil (then webhooks are unavailable), is the webhooks service; reg, likewise, the
// registration service.
func NewConsole(svc *Service, repo ConsoleRepository, mailer Mailer, hooks Webhooks, reg Registration, cfg ConsoleConfig, log *slog.Logger) *Console {
	return &Console{
		svc: svc, repo: repo, mail: mailer, hooks: hooks, reg: reg, cfg: cfg, log: log,
		signInRequests: newRequestLimiter(),
		places:         newPlaces(cfg.DBConns),
	}
}

// Now is the console's clock, in UTC.
func (c *Console) Now() time.Time { return c.svc.clock.Now() }

// Close waits for the e-mails being sent.
func (c *Console) Close() { c.sends.Wait() }

// mailTimeout bounds the background delivery of one e-mail.
const mailTimeout = 30 * time.Second

// sendLater delivers m in the background, so that a request answers in the same time whether
// or not it sends mail (a sign-in request must not tell members from strangers by its delay).
func (c *Console) sendLater(ctx context.Context, m mail.Message, what string) {
	c.sends.Add(1)
	go func() {
		defer c.sends.Done()
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), mailTimeout)
		defer cancel()
		if err := c.mail.Send(ctx, m); err != nil {
			c.log.ErrorContext(ctx, "console e-mail not sent", "mail", what, "err", err)
			return
		}
		c.log.InfoContext(ctx, "console e-mail sent", "mail", what)
	}()
}

// RunJanitor sweeps the console's expired rows (Sweep) every interval until ctx ends.
func (c *Console) RunJanitor(ctx context.Context, interval time.Duration) error {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		d, err := c.Sweep(ctx)
		switch {
		case err != nil && ctx.Err() == nil:
			c.log.WarnContext(ctx, "console janitor failed; retrying at the next tick", "err", err)
		case d.Links+d.Sessions+d.Browsers > 0:
			c.log.InfoContext(ctx, "console janitor deleted expired rows", "signin_links", d.Links, "sessions", d.Sessions, "signin_browsers", d.Browsers)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}

// Sweep deletes sign-in links older than the limits' window (and their lifetime), expired
// sessions and the browsers last seen longer ago than a browser keeps its binding, and returns
// how many of each it deleted. It waits for one of the console's places like no request does:
// the janitor is not a visitor, and has time.
func (c *Console) Sweep(ctx context.Context) (domain.Deleted, error) {
	if err := c.places.Acquire(ctx, 1); err != nil {
		return domain.Deleted{}, fmt.Errorf("sweep console: %w", err)
	}
	defer c.places.Release(1)
	now := c.svc.clock.Now()
	d, err := c.repo.DeleteExpired(ctx, now.Add(-max(c.cfg.Window, c.cfg.LinkTTL)), now, now.Add(-domain.BrowserBindingTTL))
	if err != nil {
		return d, fmt.Errorf("sweep console: %w", err)
	}
	return d, nil
}

// Memberships returns the organizations email belongs to.
func (c *Console) Memberships(ctx context.Context, email string) ([]domain.Membership, error) {
	list, err := c.repo.Memberships(ctx, email)
	if err != nil {
		return nil, fmt.Errorf("memberships: %w", err)
	}
	return list, nil
}

// Membership returns email's membership of the organizer; an organization email does not
// belong to is not found.
func (c *Console) Membership(ctx context.Context, email, organizerID string) (domain.Membership, error) {
	m, err := c.repo.Membership(ctx, email, organizerID)
	if err != nil {
		return domain.Membership{}, fmt.Errorf("membership: %w", err)
	}
	return m, nil
}

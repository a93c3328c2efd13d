package app

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/libs/ids"
	"github.com/podiumhq/podium/libs/mail"
	"github.com/podiumhq/podium/services/auth/internal/domain"
)

// sessionTouchEvery is how stale a session's last use may be before a request records it.
const sessionTouchEvery = time.Minute

// RequestSignIn asks for a sign-in link for email, bound to the visitor's browser. A client
// past its rate of sign-in requests (a known browser's own, admitSignIn) is refused
// (fault.TooManyRequests) before anything else, whatever the e-mail. Otherwise it answers the
// same whether or not email belongs to a member and whether or not a limit is reached: within
// the limits it makes a link and e-mails it if email is a member's; past them it makes and
// sends nothing, refuses nothing, and counts toward no limit (domain.SignInLimits, which count
// the client by its network).
func (c *Console) RequestSignIn(ctx context.Context, email string, v Visitor) error {
	normal, problem := domain.NormalizeEmail(email)
	if err := c.admitSignIn(v, isAddress(normal, problem)); err != nil {
		return err
	}
	if problem != "" {
		return fault.NewInvalid(problem)
	}
	if len(v.Browser) != domain.TokenLen {
		return domain.ErrSignInLinkOtherBrowser
	}
	now := c.svc.clock.Now()
	token := domain.NewToken()
	link := domain.SignInLink{
		TokenHash: domain.HashToken(token), Email: normal, BrowserHash: domain.HashToken(v.Browser),
		Network: identity.ClientNetwork(v.Address), CreatedAt: now, ExpiresAt: now.Add(c.cfg.LinkTTL),
	}
	var created, member bool
	err := c.withPlace(ctx, func() (err error) {
		created, err = c.repo.CreateSignInLink(ctx, link, now.Add(-c.cfg.Window), c.cfg.Limits.Allows)
		if err != nil || !created {
			return err
		}
		memberships, err := c.repo.Memberships(ctx, normal)
		member = len(memberships) > 0
		return err
	})
	if err != nil {
		return fmt.Errorf("request sign-in: %w", err)
	}
	if !created {
		c.log.DebugContext(ctx, "sign-in link not made: a sign-in limit is reached")
		return nil
	}
	if member {
		c.sendLater(ctx, c.signInMail(normal, token), "sign-in link")
	}
	return nil
}

func (c *Console) signInMail(email, token string) mail.Message {
	return mail.Message{
		To:      email,
		Subject: "Your Podium console sign-in link",
		Body: fmt.Sprintf("Open this link to sign in to the Podium console:\n\n%s\n\n"+
			"It works once, for %s, in the browser where you asked for it.\n"+
			"If you did not ask for it, ignore this e-mail.\n", c.SignInURL(token), domain.Lifetime(c.cfg.LinkTTL)),
	}
}

// SignInURL is the console's address of the sign-in link with token.
func (c *Console) SignInURL(token string) string { return c.cfg.URL + "/signin/" + token }

// IssuedLink is an operator's sign-in link.
type IssuedLink struct {
	URL       string
	Email     string
	ExpiresAt time.Time
}

// OperatorSignInLink returns a sign-in link for a member, bound to no browser, for an operator
// to hand over (the local stack prints one). It is single use and expires like the others.
func (c *Console) OperatorSignInLink(ctx context.Context, email string) (IssuedLink, error) {
	normal, problem := domain.NormalizeEmail(email)
	if problem != "" {
		return IssuedLink{}, fault.NewInvalid(problem)
	}
	memberships, err := c.repo.Memberships(ctx, normal)
	if err != nil {
		return IssuedLink{}, fmt.Errorf("operator sign-in link: %w", err)
	}
	if len(memberships) == 0 {
		return IssuedLink{}, domain.ErrMemberNotFound
	}
	now := c.svc.clock.Now()
	token := domain.NewToken()
	link := domain.SignInLink{TokenHash: domain.HashToken(token), Email: normal, Network: domain.Operator, CreatedAt: now, ExpiresAt: now.Add(c.cfg.LinkTTL)}
	if _, err := c.repo.CreateSignInLink(ctx, link, now, func(domain.SignInDemand) bool { return true }); err != nil {
		return IssuedLink{}, fmt.Errorf("operator sign-in link: %w", err)
	}
	return IssuedLink{URL: c.SignInURL(token), Email: normal, ExpiresAt: link.ExpiresAt}, nil
}

// PeekSignInLink returns the link with token if it can still sign in the visitor's browser,
// without using it: the confirmation page shows it, and only its form signs in (mail scanners
// that follow links use nothing). A client past its rate of sign-in requests is refused first.
func (c *Console) PeekSignInLink(ctx context.Context, token string, v Visitor) (domain.SignInLink, error) {
	if err := c.admitSignIn(v, anyAddress); err != nil {
		return domain.SignInLink{}, err
	}
	var l domain.SignInLink
	err := c.withPlace(ctx, func() (err error) {
		l, err = c.repo.SignInLink(ctx, domain.HashToken(token))
		return err
	})
	if err != nil {
		return domain.SignInLink{}, err
	}
	if l.UsedAt != nil || !l.ExpiresAt.After(c.svc.clock.Now()) {
		return domain.SignInLink{}, domain.ErrSignInLinkInvalid
	}
	if l.BrowserHash != "" && subtle.ConstantTimeCompare([]byte(l.BrowserHash), []byte(domain.HashToken(v.Browser))) != 1 {
		return domain.SignInLink{}, domain.ErrSignInLinkOtherBrowser
	}
	return l, nil
}

// SignIn uses the link with token in the visitor's browser and opens a session for its e-mail;
// it returns the session's cookie token, shown to that browser only. The browser is remembered
// as one that signed in as that e-mail, whose later sign-in links no stranger can hold back
// (domain.SignInLimits). A client past its rate of sign-in requests is refused first.
func (c *Console) SignIn(ctx context.Context, token string, v Visitor, userAgent string) (string, domain.Session, error) {
	if err := c.admitSignIn(v, anyAddress); err != nil {
		return "", domain.Session{}, err
	}
	now := c.svc.clock.Now()
	sessionToken := domain.NewToken()
	s := domain.Session{
		ID: ids.New(domain.SessionIDPrefix), TokenHash: domain.HashToken(sessionToken),
		Address: v.Address, UserAgent: truncateRunes(userAgent, domain.MaxUserAgentLen),
		CreatedAt: now, LastSeenAt: now, ExpiresAt: now.Add(c.cfg.SessionTTL),
	}
	if v.Browser != "" {
		s.BrowserHash = domain.HashToken(v.Browser)
	}
	err := c.withPlace(ctx, func() error {
		l, err := c.repo.UseSignInLink(ctx, domain.HashToken(token), domain.HashToken(v.Browser), now)
		if err != nil {
			return err
		}
		memberships, err := c.repo.Memberships(ctx, l.Email)
		if err != nil {
			return err
		}
		if len(memberships) == 0 {
			return domain.ErrNoMembership
		}
		s.Email = l.Email
		return c.repo.CreateSession(ctx, s)
	})
	if err != nil {
		return "", domain.Session{}, fmt.Errorf("sign in: %w", err)
	}
	return sessionToken, s, nil
}

// Session returns the active session whose cookie token is token, or domain.ErrSessionInvalid;
// the caller holds one of the console's places (Hold). It records the session's use from
// address at most once a minute; each recorded use renews the console's memory of the browser
// the session was opened in, so a member who stays signed in stays a known browser
// (domain.BrowserBindingTTL). renewBinding reports a recorded use in that very browser, whose
// binding browserToken is: its cookie and marker are then to be renewed as well.
func (c *Console) Session(ctx context.Context, token, browserToken, address string) (s domain.Session, renewBinding bool, err error) {
	s, err = c.repo.SessionByTokenHash(ctx, domain.HashToken(token))
	if err != nil {
		return domain.Session{}, false, err
	}
	now := c.svc.clock.Now()
	if !s.Active(now) {
		return domain.Session{}, false, domain.ErrSessionInvalid
	}
	if now.Sub(s.LastSeenAt) < sessionTouchEvery {
		return s, false, nil
	}
	if err := c.repo.TouchSession(ctx, s.ID, address, now); err != nil {
		return domain.Session{}, false, fmt.Errorf("session: %w", err)
	}
	s.LastSeenAt, s.Address = now, address
	sameBrowser := s.BrowserHash != "" &&
		subtle.ConstantTimeCompare([]byte(s.BrowserHash), []byte(domain.HashToken(browserToken))) == 1
	return s, sameBrowser, nil
}

// Sessions returns the active sessions of email.
func (c *Console) Sessions(ctx context.Context, email string) ([]domain.Session, error) {
	list, err := c.repo.Sessions(ctx, email, c.svc.clock.Now())
	if err != nil {
		return nil, fmt.Errorf("sessions: %w", err)
	}
	return list, nil
}

// RevokeSession ends one of email's sessions; another person's session is not found.
func (c *Console) RevokeSession(ctx context.Context, email, id string) error {
	err := c.repo.RevokeSession(ctx, email, id, c.svc.clock.Now())
	if errors.Is(err, domain.ErrSessionInvalid) {
		return fault.NewNotFound("session")
	}
	if err != nil {
		return fmt.Errorf("revoke session: %w", err)
	}
	return nil
}

// truncateRunes cuts s to at most n runes.
func truncateRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}

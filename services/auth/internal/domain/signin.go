package domain

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/ids"
)

// TokenLen is the length of sign-in, session and browser tokens: 43 base62 characters, about
// 256 random bits.
const TokenLen = 43

// NewToken returns a new random token for a sign-in link, a session or a browser binding.
func NewToken() string { return ids.Random("", TokenLen) }

// HashToken is the only form in which tokens are stored: the hex SHA-256 of the token. Tokens
// carry 256 random bits, so a fast hash is as safe as a slow one.
func HashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// CSRFToken is the token the forms of a browser holding the cookie value token carry: derived
// from it, so it needs no storage, and different from its stored hash, so a read of the
// database does not yield it.
func CSRFToken(token string) string { return HashToken("csrf:" + token) }

// SignInLink is a one-time sign-in link as stored: its token's hash, the e-mail it signs in,
// the hash of the browser binding that asked for it (empty for an operator's link, which any
// browser may use) and the client network it was asked from (Operator for an operator's).
type SignInLink struct {
	TokenHash   string
	Email       string
	BrowserHash string
	Network     string
	CreatedAt   time.Time
	ExpiresAt   time.Time
	UsedAt      *time.Time
}

// Session is a signed-in browser of a person, identified by e-mail, across every organization
// the person is a member of. ID is public (listed, revoked by); the token is the cookie.
// BrowserHash is the hash of the binding of the browser it was opened in, empty for none.
type Session struct {
	ID          string
	TokenHash   string
	Email       string
	BrowserHash string
	Address     string
	UserAgent   string
	CreatedAt   time.Time
	LastSeenAt  time.Time
	ExpiresAt   time.Time
	RevokedAt   *time.Time
}

// Active reports whether s still signs its browser in at the given time.
func (s Session) Active(at time.Time) bool { return s.RevokedAt == nil && s.ExpiresAt.After(at) }

// SessionIDPrefix starts every session id.
const SessionIDPrefix = "ses_"

// MaxUserAgentLen bounds the user agent kept with a session.
const MaxUserAgentLen = 300

// Why a sign-in link is refused.
var (
	// ErrSignInLinkInvalid is a link that is unknown, already used or expired.
	ErrSignInLinkInvalid = fault.NewNotFound("sign-in link").WithCode("signin_link_invalid")
	// ErrSignInLinkOtherBrowser is a link opened in another browser than the one that asked.
	ErrSignInLinkOtherBrowser = errors.New("the sign-in link was asked for in another browser")
	// ErrNoMembership is a sign-in of an e-mail that belongs to no organization.
	ErrNoMembership = errors.New("the e-mail address is not a member of any organization")
	// ErrSessionInvalid is a session cookie that is unknown, revoked or expired.
	ErrSessionInvalid = errors.New("the session is unknown, revoked or expired")
	// ErrNotAllowed is a change the member's role does not allow.
	ErrNotAllowed = errors.New("your role does not allow this change")
)

// Membership is a person's place in one organization: the member and the organization's name.
type Membership struct {
	Member
	OrganizerName string
}

// BrowserBindingTTL is how long a browser keeps its binding (the cookie that ties sign-in links
// to it) after it asked for a link, signed in or used its session, and so how long the console
// remembers a browser that signed in as someone after it last signed in or used a session:
// long enough that a member who signs in twice a year, or stays signed in, is never treated as
// a stranger, and well under the 400 days browsers keep a cookie at most.
const BrowserBindingTTL = 180 * 24 * time.Hour

// SignInDemand is what was asked within the sign-in limits' window before a request for a
// link: by its browser for its e-mail address, for that address by any browser, and from its
// client network; and whether its browser signed in as that address before (KnownBrowser).
type SignInDemand struct {
	ByBrowser, ByEmail, ByNetwork int
	KnownBrowser                  bool
}

// SignInLimits bound the sign-in links made within one window. Every request is answered alike;
// one past a limit makes no link and sends no mail, so no request is refused and nobody learns
// who is a member.
//
// A browser that signed in as the address before (the member's own) is bound only by
// PerBrowser: nobody else holds its binding, so no stranger's requests can spend its links.
// Any other browser (a stranger's, or the member's on a new device, which look alike) is bound
// by PerBrowser, PerEmail and PerNetwork too, so strangers cannot flood a member's inbox.
type SignInLimits struct {
	// PerBrowser bounds the links one browser asks for one address.
	PerBrowser int
	// PerEmail bounds the links asked for one address, and PerNetwork those asked from one client
	// network (an IPv4 address, an IPv6 /64), by browsers that never signed in as the address.
	PerEmail, PerNetwork int
}

// Allows reports whether a request with demand d makes a link (mailed to the address when it
// is a member's).
func (l SignInLimits) Allows(d SignInDemand) bool {
	if d.ByBrowser >= l.PerBrowser {
		return false
	}
	return d.KnownBrowser || d.ByEmail < l.PerEmail && d.ByNetwork < l.PerNetwork
}

// Deleted counts the console's rows the janitor deleted: sign-in links, sessions and the
// browsers remembered as having signed in.
type Deleted struct {
	Links, Sessions, Browsers int64
}

// Lifetime writes a lifetime for people: "15 minutes", "1 hour", "12 hours".
func Lifetime(d time.Duration) string {
	n, unit := int(d/time.Minute), "minute"
	if d >= time.Hour && d%time.Hour == 0 {
		n, unit = int(d/time.Hour), "hour"
	}
	if n == 1 {
		return "1 " + unit
	}
	return fmt.Sprintf("%d %ss", n, unit)
}

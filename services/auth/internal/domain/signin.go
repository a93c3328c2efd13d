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
// and the hash of the browser binding that asked for it (empty for an operator's link, which
// any browser may use).
type SignInLink struct {
	TokenHash   string
	Email       string
	BrowserHash string
	Address     string
	CreatedAt   time.Time
	ExpiresAt   time.Time
	UsedAt      *time.Time
}

// Session is a signed-in browser of a person, identified by e-mail, across every organization
// the person is a member of. ID is public (listed, revoked by); the token is the cookie.
type Session struct {
	ID         string
	TokenHash  string
	Email      string
	Address    string
	UserAgent  string
	CreatedAt  time.Time
	LastSeenAt time.Time
	ExpiresAt  time.Time
	RevokedAt  *time.Time
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

// SignInDemand is how many sign-in links were asked for one e-mail and from one client
// address within the limits' window.
type SignInDemand struct {
	ByEmail, ByAddress int
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

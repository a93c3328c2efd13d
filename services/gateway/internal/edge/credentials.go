package edge

import (
	"errors"
	"net/http"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/apikey"
	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/services/gateway/internal/keys"
)

// Header names of the two credentials.
const (
	headerAPIKey         = "X-Api-Key" //nolint:gosec // a header name, not a credential
	headerPublishableKey = "X-Publishable-Key"
)

// Messages of credential failures; each names what to do next.
var (
	errNoSecretKey         = httpserver.Unauthorized(codeKeyMissing, "missing API key: send a secret key as 'Authorization: Bearer <key>' or in the x-api-key header")
	errNotBearer           = httpserver.Unauthorized(codeKeyMalformed, "the Authorization header must use the Bearer scheme")
	errNoPublishableKey    = httpserver.Unauthorized(codeKeyMissing, "missing publishable key: send it in the x-publishable-key header")
	errMalformedKey        = httpserver.Unauthorized(codeKeyMalformed, "malformed API key")
	errChecksum            = httpserver.Unauthorized(codeKeyMalformed, "malformed API key: checksum mismatch")
	errUnknownKey          = httpserver.Unauthorized(codeKeyUnknown, "unknown API key")
	errRevokedKey          = httpserver.Unauthorized(codeKeyRevoked, "this API key has been revoked")
	errPublishableOnServer = httpserver.Forbidden(codeKeyWrongSurface, "publishable keys work only on /external/v1/browser endpoints; use a secret key")
	errSecretInBrowser     = httpserver.Forbidden(codeKeyWrongSurface, "secret keys are refused on browser endpoints: use a publishable key, and revoke this secret key if it was exposed in frontend code")
	errTestKeyRequired     = httpserver.Forbidden(codeTestKeyRequired, "this operation works on test data only; use a test key (pdm_sk_test_...)")
	errKeysUnavailable     = &httpserver.Error{Status: http.StatusServiceUnavailable, Message: "key verification is temporarily unavailable; retry shortly", Headers: map[string]string{fiber.HeaderRetryAfter: "1"}}
)

// secretKeyFrom returns the secret key of an organizer request.
func secretKeyFrom(c *fiber.Ctx) (string, error) {
	if auth := c.Get(fiber.HeaderAuthorization); auth != "" {
		scheme, key, ok := strings.Cut(auth, " ")
		if !ok || !strings.EqualFold(scheme, "Bearer") {
			return "", errNotBearer
		}
		return strings.TrimSpace(key), nil
	}
	if key := c.Get(headerAPIKey); key != "" {
		return key, nil
	}
	if c.Get(headerPublishableKey) != "" {
		return "", errPublishableOnServer
	}
	return "", errNoSecretKey
}

// parsed is what a key's text says without any lookup.
type parsed struct {
	typ  apikey.Type
	mode apikey.Mode
	hash string
}

// parse checks a key's format without any lookup and returns its type, mode and hash.
func parse(key string) (parsed, error) {
	t, m, err := apikey.Parse(key)
	switch {
	case errors.Is(err, apikey.ErrChecksum):
		return parsed{}, errChecksum
	case err != nil:
		return parsed{}, errMalformedKey
	}
	return parsed{typ: t, mode: m, hash: apikey.Hash(key)}, nil
}

// admitLookup charges a lookup in auth (of a key or of an origin) to the client address's
// lookup limit of mode: test keys have their own.
func (g *Gateway) admitLookup(c *fiber.Ctx, ip string, mode apikey.Mode) func() error {
	return func() error { return g.allowAddress(c, bucketPrefix(mode)+"lookup", ip, g.limits(mode).KeyLookupPerIP) }
}

// resolve turns a parsed key into an active key of the mode its prefix says. Lookups in auth
// count against a per-IP limit, so keys made up by the million cost auth nothing.
func (g *Gateway) resolve(c *fiber.Ctx, p parsed, ip string) (*keys.Key, error) {
	k, err := g.Keys.Resolve(c.UserContext(), p.hash, g.Now(), g.admitLookup(c, ip, p.mode))
	if err == nil {
		// Auth stores each key's mode; one that differs from the prefix is refused as unknown
		// (a key without it, from an auth that does not send it yet, matches).
		if k.Mode != "" && k.Mode != p.mode {
			g.Log.ErrorContext(c.UserContext(), "key mode differs from its prefix", "keyId", k.ID, "stored", k.Mode, "prefix", p.mode)
			return nil, errUnknownKey
		}
		return k, nil
	}
	var expired *keys.ExpiredError
	var limited *httpserver.Error
	switch {
	case errors.As(err, &limited):
		return nil, limited
	case errors.Is(err, keys.ErrUnknown):
		return nil, errUnknownKey
	case errors.Is(err, keys.ErrRevoked):
		return nil, errRevokedKey
	case errors.As(err, &expired):
		return nil, httpserver.Unauthorized(codeKeyExpired, "this API key expired at "+expired.At.UTC().Format("2006-01-02T15:04:05Z"))
	}
	g.Log.ErrorContext(c.UserContext(), "key lookup failed", "err", err)
	return nil, errKeysUnavailable
}

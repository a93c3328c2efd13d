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

// parse checks a key's format without any lookup and returns its type and hash.
func parse(key string) (apikey.Type, string, error) {
	t, _, err := apikey.Parse(key)
	switch {
	case errors.Is(err, apikey.ErrChecksum):
		return "", "", errChecksum
	case err != nil:
		return "", "", errMalformedKey
	}
	return t, apikey.Hash(key), nil
}

// admitLookup charges a lookup in auth (of a key or of an origin) to the client address's
// lookup limit.
func (g *Gateway) admitLookup(c *fiber.Ctx, ip string) func() error {
	return func() error { return g.allowAddress(c, "lookup", ip, g.Limits.KeyLookupPerIP) }
}

// resolve turns a hash into an active key. Lookups in auth count against a per-IP limit, so
// keys made up by the million cost auth nothing.
func (g *Gateway) resolve(c *fiber.Ctx, hash, ip string) (*keys.Key, error) {
	k, err := g.Keys.Resolve(c.UserContext(), hash, g.Now(), g.admitLookup(c, ip))
	if err == nil {
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

package keys

import (
	"context"
	"net/http"
	"time"

	"github.com/podiumhq/podium/libs/apikey"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/libs/peer"
)

// gatewayPrincipal is who the gateway's calls to auth are made for: the gateway itself.
var gatewayPrincipal = identity.Principal{KeyID: "gateway", KeyType: identity.Service}

// AuthClient looks keys up in the auth service's internal API (services/auth/contracts).
type AuthClient struct {
	auth *peer.Client
}

// NewAuthClient returns a client of the auth service at base, authenticating as the gateway.
func NewAuthClient(base string, signer *identity.Signer, timeout time.Duration) *AuthClient {
	return &AuthClient{auth: peer.New(peer.Options{Name: identity.Auth, BaseURL: base, Timeout: timeout, Signer: signer})}
}

// Lookup implements Source: auth's 404 is ErrUnknown, an auth that could not be reached or
// failed (5xx) is ErrUnreachable, any other refusal an error of its own.
func (c *AuthClient) Lookup(ctx context.Context, hash string) (*Key, error) {
	var a verifyAnswer
	if err := c.auth.Do(ctx, gatewayPrincipal, http.MethodPost, "/internal/keys/verify", verifyRequest{KeyHash: hash}, &a); err != nil {
		return nil, err
	}
	a.Key.Mode = a.Mode
	return &a.Key, nil
}

// OriginAllowed implements Source.
func (c *AuthClient) OriginAllowed(ctx context.Context, origin string) (bool, error) {
	var out originAnswer
	if err := c.auth.Do(ctx, gatewayPrincipal, http.MethodPost, "/internal/origins/check", originRequest{Origin: origin}, &out); err != nil {
		return false, err
	}
	return out.Allowed, nil
}

// The bodies of the look-ups; the answer of a key look-up is read into Key.
type (
	verifyRequest struct {
		KeyHash string `json:"keyHash"`
	}
	// verifyAnswer is auth's answer to a key look-up: the key, and the mode auth stored for
	// it, which auth's contract does not list yet (absent: "").
	verifyAnswer struct {
		Key
		Mode apikey.Mode `json:"mode"`
	}
	originRequest struct {
		Origin string `json:"origin"`
	}
	originAnswer struct {
		Allowed bool `json:"allowed"`
	}
)

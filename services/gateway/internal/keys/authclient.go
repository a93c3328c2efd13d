package keys

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"

	"github.com/podiumhq/podium/libs/identity"
)

// AuthClient looks keys up in the auth service's internal API.
type AuthClient struct {
	base   string
	http   *http.Client
	signer *identity.Signer
}

// NewAuthClient returns a client of the auth service at base, authenticating as the gateway.
func NewAuthClient(base string, signer *identity.Signer, timeout time.Duration) *AuthClient {
	return &AuthClient{
		base:   base,
		signer: signer,
		http:   &http.Client{Timeout: timeout, Transport: otelhttp.NewTransport(http.DefaultTransport)},
	}
}

// Lookup implements Source.
func (c *AuthClient) Lookup(ctx context.Context, hash string) (*Key, error) {
	var k Key
	status, err := c.post(ctx, "/internal/keys/verify", map[string]string{"keyHash": hash}, &k)
	if err != nil {
		return nil, err
	}
	if status == http.StatusNotFound {
		return nil, ErrUnknown
	}
	return &k, nil
}

// OriginAllowed implements Source.
func (c *AuthClient) OriginAllowed(ctx context.Context, origin string) (bool, error) {
	var out struct {
		Allowed bool `json:"allowed"`
	}
	if _, err := c.post(ctx, "/internal/origins/check", map[string]string{"origin": origin}, &out); err != nil {
		return false, err
	}
	return out.Allowed, nil
}

// post sends body to path and decodes a 200 answer into out; it returns 404 as a status and
// any other answer as an error, ErrUnreachable when auth could not be reached or failed (5xx).
func (c *AuthClient) post(ctx context.Context, path string, body, out any) (int, error) {
	b, _ := json.Marshal(body)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+path, bytes.NewReader(b))
	if err != nil {
		return 0, err
	}
	tok, err := c.signer.Token(identity.Auth, identity.Principal{KeyID: "gateway", KeyType: identity.Service})
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(identity.Header, tok)
	res, err := c.http.Do(req)
	if err != nil {
		return 0, fmt.Errorf("auth %s: %w: %w", path, ErrUnreachable, err)
	}
	defer res.Body.Close()
	switch res.StatusCode {
	case http.StatusOK:
		if err := json.NewDecoder(res.Body).Decode(out); err != nil {
			return 0, fmt.Errorf("auth %s: decode: %w", path, err)
		}
		return res.StatusCode, nil
	case http.StatusNotFound:
		return res.StatusCode, nil
	}
	if res.StatusCode >= http.StatusInternalServerError {
		return 0, fmt.Errorf("auth %s: %w: status %d", path, ErrUnreachable, res.StatusCode)
	}
	return 0, fmt.Errorf("auth %s: status %d", path, res.StatusCode)
}

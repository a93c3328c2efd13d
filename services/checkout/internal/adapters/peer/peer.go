// Package peer is the HTTP JSON client checkout uses for its peer services' /internal APIs:
// it signs an identity token for the peer on the purchase's behalf, forwards the request id and
// trace context, bounds each call, and reads the standard error body of refusals.
package peer

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"

	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// headerRequestID carries the request id to peers.
const headerRequestID = "X-Request-Id"

// maxBody bounds what is read of a peer's answer.
const maxBody = 8 << 20

// Client calls one peer service.
type Client struct {
	// Name names the peer in errors and is the audience of its tokens ("catalog",
	// "registration").
	Name   string
	base   string
	http   *http.Client
	signer *identity.Signer
}

// New returns a client of the service named name at base whose calls take at most timeout and
// carry tokens signer mints. The transport injects the W3C trace context and makes a client
// span per call.
func New(name, base string, timeout time.Duration, signer *identity.Signer) *Client {
	return &Client{
		Name:   name,
		base:   strings.TrimRight(base, "/"),
		http:   &http.Client{Timeout: timeout, Transport: otelhttp.NewTransport(http.DefaultTransport)},
		signer: signer,
	}
}

// token returns the identity token of a call for caller: checkout acts for a purchase, which a
// publishable key of the organizer started.
func (c *Client) token(caller domain.Caller) (string, error) {
	if caller.OrganizerID == "" {
		return "", fmt.Errorf("%s: a call on behalf of no organizer", c.Name)
	}
	tok, err := c.signer.Token(c.Name, identity.Principal{OrganizerID: caller.OrganizerID, KeyID: caller.KeyID, KeyType: identity.Publishable})
	if err != nil {
		return "", fmt.Errorf("%s: %w", c.Name, err)
	}
	return tok, nil
}

// Problem is a peer's refusal: its status and the message of its standard error body (a
// string or a list of problems).
type Problem struct {
	Status   int
	Messages []string
	// RetryAfter is the answer's Retry-After header in seconds (0 without one).
	RetryAfter int
}

// Error implements error.
func (p *Problem) Error() string {
	return fmt.Sprintf("HTTP %d: %s", p.Status, strings.Join(p.Messages, "; "))
}

// Do sends in (when not nil) as JSON and decodes a 2xx answer into out (when not nil). A
// non-2xx answer is a *Problem; a failure to reach the peer or to read its answer is a
// *domain.UnavailableError.
func (c *Client) Do(ctx context.Context, caller domain.Caller, method, path string, in, out any) (int, error) {
	tok, err := c.token(caller)
	if err != nil {
		return 0, err
	}
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return 0, fmt.Errorf("%s: marshal request: %w", c.Name, err)
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, body)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", c.Name, err)
	}
	req.Header.Set("Accept", "application/json")
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set(identity.Header, tok)
	if caller.RequestID != "" {
		req.Header.Set(headerRequestID, caller.RequestID)
	}
	res, err := c.http.Do(req)
	if err != nil {
		return 0, &domain.UnavailableError{Service: c.Name, Err: err}
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(res.Body, maxBody))
	if err != nil {
		return res.StatusCode, &domain.UnavailableError{Service: c.Name, Err: err}
	}
	if res.StatusCode < 200 || res.StatusCode > 299 {
		retry, _ := strconv.Atoi(res.Header.Get("Retry-After"))
		return res.StatusCode, &Problem{Status: res.StatusCode, Messages: messages(raw, res.StatusCode), RetryAfter: retry}
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			return res.StatusCode, &domain.UnavailableError{Service: c.Name, Err: fmt.Errorf("unreadable answer: %w", err)}
		}
	}
	return res.StatusCode, nil
}

// messages reads the message of a standard error body.
func messages(raw []byte, status int) []string {
	var b struct {
		Message any `json:"message"`
	}
	if json.Unmarshal(raw, &b) == nil {
		switch m := b.Message.(type) {
		case string:
			return []string{m}
		case []any:
			out := make([]string, 0, len(m))
			for _, v := range m {
				out = append(out, fmt.Sprint(v))
			}
			return out
		}
	}
	return []string{http.StatusText(status)}
}

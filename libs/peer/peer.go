// Package peer is the one JSON HTTP client of the services' APIs: the calls a service makes to
// its peers' /internal routes (signed with an identity token for the principal it acts for)
// and the operator command lines' calls to an admin API (with a bearer token). It forwards the
// request id and trace context of the request being served, bounds each call, and answers every
// refusal as a failure category of libs/fault:
//
//   - 404, 409, 422 and 429 are the peer's answer about the request and keep their category,
//     problems, reason and Retry-After;
//   - a 5xx, a failure to reach the peer or an unreadable answer is Unavailable: nothing was
//     done and the request may be retried;
//   - any other 4xx, and a 404 for a route the peer does not serve, means this service sent
//     what the peer's contract refuses: Internal, our own bug, never "retry".
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

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/libs/identity"
)

// maxAnswer bounds what is read of an answer.
const maxAnswer = 8 << 20

// Options configures a Client.
type Options struct {
	// Name names the peer in errors and is the audience of its identity tokens ("catalog").
	Name string
	// BaseURL is the peer's address, for example http://127.0.0.1:8082.
	BaseURL string
	// Timeout bounds each call (0: none beyond the context's).
	Timeout time.Duration
	// Signer mints the identity token of each call for the principal it is made for.
	Signer *identity.Signer
	// Bearer, when Signer is nil, is sent as the Authorization bearer token of every call.
	Bearer string
	// Transport sends the calls; nil is http.DefaultTransport. It is wrapped to inject the
	// W3C trace context and make a client span per call.
	Transport http.RoundTripper
}

// Client calls one peer.
type Client struct {
	name   string
	base   string
	http   *http.Client
	signer *identity.Signer
	bearer string
}

// New returns a client of the peer o describes.
func New(o Options) *Client {
	rt := o.Transport
	if rt == nil {
		rt = http.DefaultTransport
	}
	return &Client{
		name:   o.Name,
		base:   strings.TrimRight(o.BaseURL, "/"),
		http:   &http.Client{Timeout: o.Timeout, Transport: otelhttp.NewTransport(rt)},
		signer: o.Signer,
		bearer: o.Bearer,
	}
}

// Do sends in (when not nil) as JSON to method path on behalf of as, and decodes a 2xx answer
// into out (when not nil). The token names only who calls (organizer, key, key type, mode): a peer
// scopes by them, and one token then serves every request of a key. A client with a bearer
// token acts for no principal; as is then zero.
func (c *Client) Do(ctx context.Context, as identity.Principal, method, path string, in, out any) error {
	req, err := c.request(ctx, as, method, path, in)
	if err != nil {
		return err
	}
	res, err := c.http.Do(req)
	if err != nil {
		return c.unavailable(method, path, err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(res.Body, maxAnswer))
	if err != nil {
		return c.unavailable(method, path, err)
	}
	if res.StatusCode < 200 || res.StatusCode > 299 {
		return c.refusal(method, path, res, raw)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			return c.unavailable(method, path, fmt.Errorf("unreadable answer: %w", err))
		}
	}
	return nil
}

func (c *Client) request(ctx context.Context, as identity.Principal, method, path string, in any) (*http.Request, error) {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return nil, fmt.Errorf("%s %s %s: encode: %w", c.name, method, path, err)
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, body)
	if err != nil {
		return nil, fmt.Errorf("%s %s %s: %w", c.name, method, path, err)
	}
	req.Header.Set("Accept", "application/json")
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if id := httpserver.RequestIDFrom(ctx); id != "" {
		req.Header.Set(httpserver.HeaderRequestID, id)
	}
	switch {
	case c.signer != nil:
		tok, err := c.signer.Token(c.name, identity.Principal{OrganizerID: as.OrganizerID, KeyID: as.KeyID, KeyType: as.KeyType, Test: as.Test})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.name, err)
		}
		req.Header.Set(identity.Header, tok)
	case c.bearer != "":
		req.Header.Set("Authorization", "Bearer "+c.bearer)
	}
	return req, nil
}

func (c *Client) unavailable(method, path string, err error) error {
	return fault.NewUnavailable(c.name, fmt.Errorf("%s %s: %w", method, path, err))
}

// refusal turns a non-2xx answer into its failure category.
func (c *Client) refusal(method, path string, res *http.Response, raw []byte) error {
	problems, code := readBody(raw, res.StatusCode)
	retry := time.Duration(0)
	if s, err := strconv.Atoi(res.Header.Get("Retry-After")); err == nil && s > 0 {
		retry = time.Duration(s) * time.Second
	}
	cause := fmt.Errorf("%s %s %s answered %d: %s", c.name, method, path, res.StatusCode, strings.Join(problems, "; "))
	e := &fault.Error{Problems: problems, Code: code, RetryAfter: retry, Err: cause}
	switch {
	case res.StatusCode == http.StatusNotFound && code != httpserver.CodeRouteNotFound:
		e.Kind = fault.NotFound
	case res.StatusCode == http.StatusConflict:
		e.Kind = fault.Conflict
	case res.StatusCode == http.StatusUnprocessableEntity:
		e.Kind = fault.Unprocessable
	case res.StatusCode == http.StatusTooManyRequests:
		e.Kind = fault.TooManyRequests
	case res.StatusCode >= 500:
		return &fault.Error{Kind: fault.Unavailable, RetryAfter: retry,
			Problems: []string{"the " + c.name + " service is unavailable; retry after the Retry-After seconds"}, Err: cause}
	default:
		return &fault.Error{Kind: fault.Internal, Err: cause}
	}
	return e
}

// readBody reads the message (a string or a list) and the code of a standard error body.
func readBody(raw []byte, status int) (problems []string, code string) {
	var b struct {
		Message json.RawMessage `json:"message"`
		Code    string          `json:"code"`
	}
	if json.Unmarshal(raw, &b) == nil && len(b.Message) > 0 {
		var one string
		if json.Unmarshal(b.Message, &one) == nil {
			return []string{one}, b.Code
		}
		if json.Unmarshal(b.Message, &problems) == nil && len(problems) > 0 {
			return problems, b.Code
		}
	}
	return []string{http.StatusText(status)}, b.Code
}

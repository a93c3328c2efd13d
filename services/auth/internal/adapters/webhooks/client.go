// Package webhooks calls the webhooks service's internal API (/internal/v1/webhook-endpoints)
// for the console, with an identity token auth signs for the signed-in member's organization.
// Whatever keeps an answer from coming (the service down, slow past the timeout, refusing the
// token, failing) is one failure, app.ErrWebhooksUnavailable, so the console's Webhooks tab
// says so and nothing else of the console waits.
package webhooks

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/auth/internal/app"
	"github.com/podiumhq/podium/services/auth/internal/domain"
)

// maxAnswer bounds what is read of an answer.
const maxAnswer = 1 << 20

// Client implements app.Webhooks.
type Client struct {
	base   string
	http   *http.Client
	signer *identity.Signer
	log    *slog.Logger
}

var _ app.Webhooks = (*Client)(nil)

// New returns a client of the webhooks service at base whose calls take at most timeout and
// carry the tokens signer mints.
func New(base string, timeout time.Duration, signer *identity.Signer, log *slog.Logger) *Client {
	return &Client{
		base:   strings.TrimRight(base, "/"),
		http:   &http.Client{Timeout: timeout, Transport: otelhttp.NewTransport(http.DefaultTransport)},
		signer: signer,
		log:    log,
	}
}

// principal is the console acting for member in their organization: a service principal
// with the scope the organizer API asks of the same routes, in test mode when the console is.
func principal(as app.WebhooksCaller) identity.Principal {
	return identity.Principal{
		OrganizerID: as.OrganizerID, KeyID: "console:" + as.MemberID, KeyType: identity.Service,
		Scopes: []string{domain.ScopeWebhooksWrite}, Test: as.Test,
	}
}

// do sends in (when not nil) as JSON to method path for as and decodes a 2xx answer into
// out. The service's refusals of the request keep their category and problems (a URL it does
// not allow, another organizer's endpoint); anything else is app.ErrWebhooksUnavailable.
func (c *Client) do(ctx context.Context, as app.WebhooksCaller, method, path string, in, out any) error {
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
	if res.StatusCode >= 200 && res.StatusCode <= 299 {
		if err := json.Unmarshal(raw, out); err != nil {
			return c.unavailable(method, path, fmt.Errorf("unreadable answer: %w", err))
		}
		return nil
	}
	problems := readProblems(raw)
	kind, ok := refusals[res.StatusCode]
	if !ok || len(problems) == 0 {
		return c.unavailable(method, path, fmt.Errorf("answered %d: %s", res.StatusCode, raw))
	}
	return &fault.Error{Kind: kind, Problems: problems, Err: fmt.Errorf("webhooks %s %s answered %d", method, path, res.StatusCode)}
}

// refusals are the answers about the request itself, by status.
var refusals = map[int]fault.Kind{
	http.StatusBadRequest:          fault.Invalid,
	http.StatusNotFound:            fault.NotFound,
	http.StatusConflict:            fault.Conflict,
	http.StatusUnprocessableEntity: fault.Unprocessable,
}

func (c *Client) request(ctx context.Context, as app.WebhooksCaller, method, path string, in any) (*http.Request, error) {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return nil, fmt.Errorf("webhooks %s %s: encode: %w", method, path, err)
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, body)
	if err != nil {
		return nil, fmt.Errorf("webhooks %s %s: %w", method, path, err)
	}
	req.Header.Set("Accept", "application/json")
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if id := httpserver.RequestIDFrom(ctx); id != "" {
		req.Header.Set(httpserver.HeaderRequestID, id)
	}
	tok, err := c.signer.Token(identity.Webhooks, principal(as))
	if err != nil {
		return nil, fmt.Errorf("webhooks: %w", err)
	}
	req.Header.Set(identity.Header, tok)
	return req, nil
}

func (c *Client) unavailable(method, path string, cause error) error {
	c.log.Warn("webhooks service unavailable", "method", method, "path", path, "error", cause)
	return fmt.Errorf("webhooks %s %s: %w: %w", method, path, app.ErrWebhooksUnavailable, cause)
}

// readProblems reads the message (a string or a list) of a standard error body.
func readProblems(raw []byte) []string {
	var b struct {
		Message json.RawMessage `json:"message"`
	}
	if json.Unmarshal(raw, &b) != nil || len(b.Message) == 0 {
		return nil
	}
	var one string
	if json.Unmarshal(b.Message, &one) == nil {
		return []string{one}
	}
	var list []string
	_ = json.Unmarshal(b.Message, &list)
	return list
}

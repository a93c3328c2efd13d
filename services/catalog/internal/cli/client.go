// Package cli is the operator command line: a client of the catalog admin API (libs/peer, with
// the operator token) that imports event files and lists an organizer's events.
package cli

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/libs/peer"
	"github.com/podiumhq/podium/services/catalog/internal/api"
)

// Client calls the admin API, one call at a time.
type Client struct {
	admin   *peer.Client
	answers *resultHeader
}

// NewClient returns a client of the admin API at baseURL (for example http://127.0.0.1:8082)
// that sends token as its bearer token and gives each call up to timeout.
func NewClient(baseURL, token string, timeout time.Duration) *Client {
	answers := &resultHeader{next: http.DefaultTransport}
	return &Client{
		admin:   peer.New(peer.Options{Name: "catalog admin API", BaseURL: baseURL, Timeout: timeout, Bearer: token, Transport: answers}),
		answers: answers,
	}
}

// call sends in (when not nil) as JSON and returns the JSON answer and its import result header.
func (c *Client) call(ctx context.Context, method, path string, in any) (json.RawMessage, string, error) {
	var out json.RawMessage
	if err := c.admin.Do(ctx, identity.Principal{}, method, path, in, &out); err != nil {
		return nil, "", err
	}
	return out, c.answers.last(), nil
}

// resultHeader keeps the import result header of the latest answer: peer decodes the bodies
// of answers only, and the admin API tells an import's outcome in a header.
type resultHeader struct {
	next   http.RoundTripper
	mu     sync.Mutex
	latest string
}

// RoundTrip implements http.RoundTripper.
func (r *resultHeader) RoundTrip(req *http.Request) (*http.Response, error) {
	res, err := r.next.RoundTrip(req)
	if err == nil {
		r.mu.Lock()
		r.latest = res.Header.Get(api.HeaderImportResult)
		r.mu.Unlock()
	}
	return res, err
}

func (r *resultHeader) last() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.latest
}

// Explain says why a command failed, as an operator reads it: problems one per line under what
// refused them (the event file, checked before it is sent, or the admin API); any other failure
// on one line, with what the admin API answered or why it could not be reached. Each line is
// escaped like the output (text), since a problem may quote what was sent.
func Explain(err error) string {
	f, ok := fault.Of(err)
	switch {
	case !ok || f.Kind == fault.Unavailable:
		return text(err.Error())
	case len(f.Problems) == 0 && f.Err != nil: // an answer this client did not expect, such as a 401
		return text(f.Err.Error())
	}
	heading := "the admin API refused the request (" + f.Kind.String() + ")"
	if f.Kind == fault.Invalid {
		heading = "the event file has problems"
	}
	lines := make([]string, len(f.Problems))
	for i, p := range f.Problems {
		lines[i] = text(p)
	}
	return heading + ":\n  " + strings.Join(lines, "\n  ")
}

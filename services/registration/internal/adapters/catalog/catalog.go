// Package catalog is the client of the catalog service's internal API: it reads events
// (GET /internal/events/{eventId}) with an identity token registration signs for the catalog on
// the caller's behalf (the organizer and key of the request being served), forwards the request
// id and trace context, and keeps each event for a short time so that creates do not pay a
// catalog round trip each.
package catalog

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"golang.org/x/sync/singleflight"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/registration/internal/domain"
)

// Caller is on whose behalf the catalog is called: the principal of the request being served
// and its request id.
type Caller struct {
	Principal identity.Principal
	RequestID string
}

type callerKey struct{}

// WithCaller returns ctx carrying the caller to forward.
func WithCaller(ctx context.Context, c Caller) context.Context {
	return context.WithValue(ctx, callerKey{}, c)
}

func callerOf(ctx context.Context) Caller {
	c, _ := ctx.Value(callerKey{}).(Caller)
	return c
}

// Client reads events from the catalog, caching each successful answer for TTL.
type Client struct {
	base   string
	http   *http.Client
	signer *identity.Signer
	ttl    time.Duration
	now    func() time.Time
	group  singleflight.Group
	mu     sync.Mutex
	cache  map[string]entry
}

type entry struct {
	event   domain.Event
	expires time.Time
}

// New returns a client of the catalog at base (for example http://127.0.0.1:8082) that keeps
// events for ttl (0 disables the cache) and signs its calls with signer.
func New(base string, ttl time.Duration, signer *identity.Signer) *Client {
	return &Client{
		base:   strings.TrimRight(base, "/"),
		http:   &http.Client{Timeout: 5 * time.Second, Transport: otelhttp.NewTransport(http.DefaultTransport)},
		signer: signer,
		ttl:    ttl,
		now:    time.Now,
		cache:  map[string]entry{},
	}
}

// Event returns the event, from the cache when it was read less than TTL ago. Only found
// events are cached: whether an event is visible depends on the caller's organizer, which
// the caller checks against the event's organizerId.
func (c *Client) Event(ctx context.Context, eventID string) (domain.Event, error) {
	if e, ok := c.cached(eventID); ok {
		return e, nil
	}
	caller := callerOf(ctx)
	v, err, _ := c.group.Do(eventID+"\x00"+caller.Principal.OrganizerID, func() (any, error) {
		e, err := c.fetch(ctx, eventID, caller)
		if err == nil && c.ttl > 0 {
			c.mu.Lock()
			c.cache[eventID] = entry{event: e, expires: c.now().Add(c.ttl)}
			c.mu.Unlock()
		}
		return e, err
	})
	if err != nil {
		return domain.Event{}, err
	}
	return v.(domain.Event), nil
}

func (c *Client) cached(eventID string) (domain.Event, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.cache[eventID]
	if !ok {
		return domain.Event{}, false
	}
	if c.now().After(e.expires) {
		delete(c.cache, eventID)
		return domain.Event{}, false
	}
	return e.event, true
}

func (c *Client) fetch(ctx context.Context, eventID string, caller Caller) (domain.Event, error) {
	// The catalog scopes the event by the organizer; the rest of the principal is kept to the
	// fields that say who calls, so one token serves every request of a key.
	p := caller.Principal
	tok, err := c.signer.Token(identity.Catalog, identity.Principal{OrganizerID: p.OrganizerID, KeyID: p.KeyID, KeyType: p.KeyType})
	if err != nil {
		return domain.Event{}, fmt.Errorf("catalog: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/internal/events/"+url.PathEscape(eventID), nil)
	if err != nil {
		return domain.Event{}, fmt.Errorf("catalog: %w", err)
	}
	req.Header.Set(identity.Header, tok)
	if caller.RequestID != "" {
		req.Header.Set(httpserver.HeaderRequestID, caller.RequestID)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return domain.Event{}, fault.NewUnavailable(identity.Catalog, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if err != nil {
		return domain.Event{}, fault.NewUnavailable(identity.Catalog, err)
	}
	switch resp.StatusCode {
	case http.StatusOK:
	case http.StatusNotFound:
		return domain.Event{}, domain.NotFound("event", eventID)
	default:
		return domain.Event{}, fault.NewUnavailable(identity.Catalog, fmt.Errorf("GET event answered %d", resp.StatusCode))
	}
	var e domain.Event
	if err := json.Unmarshal(body, &e); err != nil {
		return domain.Event{}, fault.NewUnavailable(identity.Catalog, fmt.Errorf("event %s: %w", eventID, err))
	}
	if e.ID == "" {
		e.ID = eventID
	}
	return e, nil
}

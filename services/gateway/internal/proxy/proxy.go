// Package proxy forwards a request the gateway accepted to the service that owns its path. It
// builds the upstream request from an allowlist of client headers (credentials never travel
// further), adds the internal identity token, the client address, the request id and the trace
// context, and copies back the owner's status, body and an allowlist of response headers.
package proxy

import (
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"
	"go.opentelemetry.io/otel"

	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/gateway/internal/edgecache"
)

// requestHeaders are the client headers an owner may see.
var requestHeaders = []string{
	fiber.HeaderContentType, fiber.HeaderAccept, fiber.HeaderAcceptLanguage,
	fiber.HeaderIfNoneMatch, fiber.HeaderIfModifiedSince, fiber.HeaderUserAgent,
}

// responseHeaders are the owner headers a client may see.
var responseHeaders = []string{
	fiber.HeaderContentType, fiber.HeaderCacheControl, fiber.HeaderETag, fiber.HeaderLastModified,
	fiber.HeaderRetryAfter, fiber.HeaderLocation, fiber.HeaderContentLanguage, "Idempotent-Replayed",
}

// Upstream is one owner service.
type Upstream struct {
	Name    string
	client  *fasthttp.HostClient
	scheme  []byte
	timeout time.Duration
}

// New returns an upstream for the service at base (http://host:port).
func New(name, base string, timeout time.Duration) (*Upstream, error) {
	u, err := url.Parse(base)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return nil, fmt.Errorf("proxy: %s URL %q must be http(s)://host:port", name, base)
	}
	return &Upstream{
		Name:    name,
		timeout: timeout,
		scheme:  []byte(u.Scheme),
		// Each request is bounded by timeout as a whole (DoTimeout), so the connections need no
		// read and write timeouts of their own.
		client: &fasthttp.HostClient{
			Addr:                     u.Host,
			IsTLS:                    u.Scheme == "https",
			Name:                     "podium-gateway",
			MaxConns:                 1024,
			MaxIdleConnDuration:      30 * time.Second,
			NoDefaultUserAgentHeader: true,
			// The owner routes the path as the client sent it, as the gateway did: normalizing
			// it would decode evt_1%2Fpricing-cards, which the gateway routed as an event id,
			// into the path of evt_1's pricing cards.
			DisablePathNormalizing: true,
			RetryIfErr:             func(*fasthttp.Request, int, error) (bool, bool) { return false, false },
		},
	}, nil
}

// RetryAfterUnavailable is the Retry-After, in seconds, of the answer to a request whose owner
// could not be reached: an owner restarting or failing over is back within a few seconds.
const RetryAfterUnavailable = "2"

// unavailable is the answer when the owner could not be reached (connection refused or cut):
// 503, which a client retries after Retry-After (a checkout session with the same
// idempotencyKey), rather than 502, which tells a client nothing about retrying.
func unavailable(owner string) *httpserver.Error {
	return &httpserver.Error{
		Status:  fiber.StatusServiceUnavailable,
		Message: owner + " is unavailable; retry after the Retry-After seconds",
		Headers: map[string]string{fiber.HeaderRetryAfter: RetryAfterUnavailable},
	}
}

// Forward is what the gateway adds to a forwarded request.
type Forward struct {
	Identity  string
	ClientIP  string
	RequestID string
	// Headers are further client headers this route passes on (for example Stripe-Signature).
	Headers []string
	// Shareable passes the owner's Surrogate-Control on to the answer, for the edge cache to
	// read and remove.
	Shareable bool
}

// Do forwards the request in c and writes the owner's answer to c.
func (u *Upstream) Do(c *fiber.Ctx, f Forward) error {
	req, res := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(res)

	in := &c.Request().Header
	req.Header.SetMethodBytes(in.Method())
	// The URI as the gateway parsed it (its original path, not a normalized one: see New), not
	// parsed again from the request line.
	c.Request().URI().CopyTo(req.URI())
	req.URI().SetSchemeBytes(u.scheme)
	req.Header.SetHost(u.client.Addr)
	req.SetBodyRaw(c.Body())
	for _, h := range requestHeaders {
		if v := in.Peek(h); len(v) > 0 {
			req.Header.SetBytesV(h, v)
		}
	}
	for _, h := range f.Headers {
		if v := in.Peek(h); len(v) > 0 {
			req.Header.SetBytesV(h, v)
		}
	}
	req.Header.Set(identity.Header, f.Identity)
	req.Header.Set(identity.HeaderClientIP, f.ClientIP)
	req.Header.Set(httpserver.HeaderRequestID, f.RequestID)
	otel.GetTextMapPropagator().Inject(c.UserContext(), httpserver.HeaderCarrier{H: &req.Header})

	if err := u.client.DoTimeout(req, res, u.timeout); err != nil {
		if errors.Is(err, fasthttp.ErrTimeout) {
			return &httpserver.Error{Status: fiber.StatusGatewayTimeout, Message: u.Name + " did not answer in time; retry after the Retry-After seconds",
				Headers: map[string]string{fiber.HeaderRetryAfter: RetryAfterUnavailable}}
		}
		return unavailable(u.Name)
	}
	c.Status(res.StatusCode())
	c.Response().SetBody(res.Body())
	for _, h := range responseHeaders {
		if v := res.Header.Peek(h); len(v) > 0 {
			c.Response().Header.SetBytesV(h, v)
		}
	}
	if v := res.Header.Peek(edgecache.HeaderSurrogateControl); f.Shareable && len(v) > 0 {
		c.Response().Header.SetBytesV(edgecache.HeaderSurrogateControl, v)
	}
	return nil
}

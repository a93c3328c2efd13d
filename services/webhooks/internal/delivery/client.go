package delivery

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"go.opentelemetry.io/otel/propagation"
)

// Bounds of an attempt.
const (
	// AttemptTimeout bounds an attempt, from dialing to reading the answer.
	AttemptTimeout = 15 * time.Second
	// answerRead is how much of an answer's body is read (the rest is dropped with the
	// connection); excerptSize is how much of it is kept.
	answerRead  = 4 << 10
	excerptSize = 1 << 10
)

// UserAgent names the sender to receivers.
const UserAgent = "Podium-Webhooks/1"

// ClientOptions configures a Client.
type ClientOptions struct {
	// AllowLoopbackReceivers allows http:// and loopback receivers (local runs and tests
	// only); no other private address is ever allowed.
	AllowLoopbackReceivers bool
	// Resolver finds the receivers' addresses; nil is net.DefaultResolver.
	Resolver Resolver
	// Dial connects to an address the guard allowed; nil is a net.Dialer that checks the
	// address again as it connects. Tests give one that lands every connection on a listener
	// of theirs.
	Dial DialFunc
	// RootCAs are the certificate authorities receivers' certificates are checked against;
	// nil is the system's.
	RootCAs *x509.CertPool
	// Timeout bounds an attempt; 0 is AttemptTimeout.
	Timeout time.Duration
	// IdleConnsPerHost bounds the kept-alive connections to one host; 0 is 4.
	IdleConnsPerHost int
}

// Client sends webhooks through the SSRF guard. It follows no redirect and uses no proxy.
type Client struct {
	http          *http.Client
	allowLoopback bool
	timeout       time.Duration
}

// NewClient returns a client configured by o.
func NewClient(o ClientOptions) *Client {
	if o.Timeout <= 0 {
		o.Timeout = AttemptTimeout
	}
	if o.IdleConnsPerHost <= 0 {
		o.IdleConnsPerHost = 4
	}
	g := newGuard(o.AllowLoopbackReceivers, o.Resolver, o.Dial)
	transport := &http.Transport{
		Proxy:                  nil,
		DialContext:            g.DialContext,
		TLSClientConfig:        &tls.Config{RootCAs: o.RootCAs, MinVersion: tls.VersionTLS12},
		ForceAttemptHTTP2:      true,
		TLSHandshakeTimeout:    10 * time.Second,
		MaxIdleConns:           1024,
		MaxIdleConnsPerHost:    o.IdleConnsPerHost,
		IdleConnTimeout:        90 * time.Second,
		MaxResponseHeaderBytes: 64 << 10,
	}
	return &Client{
		http: &http.Client{
			// A span per attempt, but no trace context sent: receivers are not ours.
			Transport: otelhttp.NewTransport(transport, otelhttp.WithPropagators(propagation.NewCompositeTextMapPropagator())),
			Timeout:   o.Timeout,
			CheckRedirect: func(*http.Request, []*http.Request) error {
				return http.ErrUseLastResponse
			},
		},
		allowLoopback: o.AllowLoopbackReceivers,
		timeout:       o.Timeout,
	}
}

// Request is one attempt of a message to an endpoint.
type Request struct {
	URL       string
	MessageID string
	Body      []byte
	// Secrets sign the message, the newest first.
	Secrets   []Secret
	Timestamp time.Time
}

// Response is what an attempt got: the answer's status code (0 without an answer), its
// Retry-After header and the start of its body, or the failure to get one.
type Response struct {
	StatusCode int
	RetryAfter string
	Excerpt    string
	Err        error
}

// Send makes one attempt of r.
func (c *Client) Send(ctx context.Context, r Request) Response {
	if err := ValidateURL(r.URL, c.allowLoopback); err != nil {
		return Response{Err: err}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.URL, bytes.NewReader(r.Body))
	if err != nil {
		return Response{Err: fmt.Errorf("%w: %w", ErrInvalidURL, err)}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", UserAgent)
	req.Header.Set(HeaderID, r.MessageID)
	req.Header.Set(HeaderTimestamp, strconv.FormatInt(r.Timestamp.Unix(), 10))
	req.Header.Set(HeaderSignature, Sign(r.Secrets, r.MessageID, r.Timestamp, r.Body))
	res, err := c.http.Do(req)
	if err != nil {
		return Response{Err: c.failure(err)}
	}
	defer res.Body.Close()
	// A body that breaks off or stalls (until the attempt's timeout) leaves what was read: the
	// status code is the answer, so a 200 whose body stalls is a success.
	body, _ := io.ReadAll(io.LimitReader(res.Body, answerRead))
	return Response{StatusCode: res.StatusCode, RetryAfter: res.Header.Get("Retry-After"), Excerpt: excerpt(body)}
}

// ErrTimeout is an attempt that got no answer within its bound.
var ErrTimeout = errors.New("timed out")

// failure is the reason an attempt got no answer, without the request's URL.
func (c *Client) failure(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		if ue.Timeout() {
			return fmt.Errorf("%w after %s", ErrTimeout, c.timeout)
		}
		return ue.Err
	}
	return err
}

// excerpt is the start of body, at most excerptSize bytes, as text that can be stored and
// shown: valid UTF-8 without NUL characters, cut between characters.
func excerpt(body []byte) string {
	s := strings.ReplaceAll(strings.ToValidUTF8(string(body), "\uFFFD"), "\x00", "")
	if len(s) <= excerptSize {
		return s
	}
	cut := excerptSize
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut]
}

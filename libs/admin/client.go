package admin

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/podiumhq/podium/libs/admin/command"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/libs/peer"
)

// name names the admin API in errors ("admin API GET /admin/... answered 401: ...").
const name = "admin API"

// timeout bounds each call of an operator command.
const timeout = 30 * time.Second

// Client calls one service's admin API with the operator token (libs/peer).
type Client struct{ peer *peer.Client }

// NewClient returns a client of the admin API at baseURL (http://127.0.0.1:8081) that sends
// token as its bearer token and gives each call up to timeout.
func NewClient(baseURL, token string, timeout time.Duration) *Client {
	return &Client{peer: peer.New(peer.Options{Name: name, BaseURL: baseURL, Bearer: token, Timeout: timeout, Transport: keepHeader{http.DefaultTransport}})}
}

// FromEnv returns the client of service's admin API: at <SERVICE>_ADMIN_URL (defaultURL when
// unset), with <SERVICE>_OPERATOR_TOKEN as its bearer token.
func FromEnv(service, defaultURL string) (*Client, error) {
	prefix := strings.ToUpper(service) + "_"
	url := os.Getenv(prefix + "ADMIN_URL")
	if url == "" {
		url = defaultURL
	}
	token := os.Getenv(prefix + "OPERATOR_TOKEN")
	if token == "" {
		return nil, fmt.Errorf("config: %sOPERATOR_TOKEN is required", prefix)
	}
	return NewClient(url, token, timeout), nil
}

// Operator returns, for each resource (the first word of the command line: "key"), the
// command that runs commands with the client of service's admin API (FromEnv).
func Operator(service, defaultURL string, commands command.Set[*Client]) func(resource string) func(context.Context, []string, io.Writer) error {
	return func(resource string) func(context.Context, []string, io.Writer) error {
		return func(ctx context.Context, args []string, out io.Writer) error {
			c, err := FromEnv(service, defaultURL)
			if err != nil {
				return err
			}
			return commands.Run(ctx, c, append([]string{resource}, args...), out)
		}
	}
}

// Answer is a 2xx answer of the admin API.
type Answer struct {
	Body   json.RawMessage
	Header http.Header
}

// Call sends in (when not nil) as JSON to method path and returns the 2xx answer; a refusal is
// a *fault.Error (see Explain).
func (c *Client) Call(ctx context.Context, method, path string, in any) (Answer, error) {
	var a Answer
	err := c.peer.Do(context.WithValue(ctx, headerKey{}, &a.Header), identity.Principal{}, method, path, in, &a.Body)
	return a, err
}

// Show calls method path with in and prints the answer: its JSON with asJSON, otherwise
// decoded into a T and printed by print.
func Show[T any](ctx context.Context, c *Client, out io.Writer, asJSON bool, method, path string, in any, print func(io.Writer, T) error) error {
	a, err := c.Call(ctx, method, path, in)
	switch {
	case err != nil:
		return err
	case asJSON:
		return command.JSON(out, a.Body)
	}
	var v T
	if err := json.Unmarshal(a.Body, &v); err != nil {
		return fmt.Errorf("%s answered an unexpected body: %w", name, err)
	}
	return print(out, v)
}

// headerKey keys, in a call's context, where the call keeps its answer's header.
type headerKey struct{}

// keepHeader keeps each answer's header where its call asked for it: peer hands over answers'
// bodies only, and an admin API may tell an outcome in a header (catalog's import result).
type keepHeader struct{ next http.RoundTripper }

// RoundTrip implements http.RoundTripper.
func (k keepHeader) RoundTrip(req *http.Request) (*http.Response, error) {
	res, err := k.next.RoundTrip(req)
	if h, ok := req.Context().Value(headerKey{}).(*http.Header); ok && err == nil {
		*h = res.Header
	}
	return res, err
}

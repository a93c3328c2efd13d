// Package cli is the operator command line: an HTTP client of the catalog admin API that
// imports event files and lists an organizer's events.
package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// Client calls the admin API.
type Client struct {
	// BaseURL is the admin API's address, for example http://127.0.0.1:8082.
	BaseURL string
	// Token is the operator token sent as a bearer token.
	Token string
	// HTTP sends the requests.
	HTTP *http.Client
}

// APIError is a non-2xx answer of the admin API, carrying the server's messages.
type APIError struct {
	Status   int
	Messages []string
}

// Error implements error: the server's messages, one per line.
func (e *APIError) Error() string {
	if len(e.Messages) == 0 {
		return fmt.Sprintf("%d %s", e.Status, http.StatusText(e.Status))
	}
	return strings.Join(e.Messages, "\n")
}

// response is a 2xx answer.
type response struct {
	body   []byte
	header http.Header
}

// do sends a request with body (of contentType, when not nil) and returns a 2xx answer, or an
// *APIError.
func (c *Client) do(ctx context.Context, method, path, contentType string, body []byte) (response, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, strings.TrimRight(c.BaseURL, "/")+path, rd)
	if err != nil {
		return response{}, fmt.Errorf("build request: %w", err)
	}
	req.Header.Set("Authorization", "Bearer "+c.Token)
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return response{}, fmt.Errorf("call admin API: %w", err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 20<<20))
	if err != nil {
		return response{}, fmt.Errorf("read admin API response: %w", err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return response{}, apiError(resp.StatusCode, b)
	}
	return response{body: b, header: resp.Header}, nil
}

// apiError reads the messages of a standard error body, which are one string or a list.
func apiError(status int, b []byte) *APIError {
	e := &APIError{Status: status}
	var body struct {
		Message json.RawMessage `json:"message"`
	}
	if json.Unmarshal(b, &body) != nil || len(body.Message) == 0 {
		return e
	}
	var one string
	if json.Unmarshal(body.Message, &one) == nil {
		e.Messages = []string{one}
		return e
	}
	_ = json.Unmarshal(body.Message, &e.Messages)
	return e
}

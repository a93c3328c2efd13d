// Package cli is the operator command line: an HTTP client of the auth admin API that creates
// organizers and creates, lists and revokes their API keys.
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
	// BaseURL is the admin API's address, for example http://127.0.0.1:8081.
	BaseURL string
	// Token is the operator token sent as a bearer token.
	Token string
	// HTTP sends the requests.
	HTTP *http.Client
}

// APIError is a non-2xx answer of the admin API, carrying the server's message.
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

// errorBody is the standard error body of every service.
type errorBody struct {
	Message   json.RawMessage `json:"message"`
	RequestID string          `json:"requestId"`
}

// do sends a request with body as JSON (when not nil) and returns the response body of a 2xx
// answer, or an *APIError.
func (c *Client) do(ctx context.Context, method, path string, body any) ([]byte, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, fmt.Errorf("encode request: %w", err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, strings.TrimRight(c.BaseURL, "/")+path, rd)
	if err != nil {
		return nil, fmt.Errorf("build request: %w", err)
	}
	req.Header.Set("Authorization", "Bearer "+c.Token)
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return nil, fmt.Errorf("call admin API: %w", err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 10<<20))
	if err != nil {
		return nil, fmt.Errorf("read admin API response: %w", err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, apiError(resp.StatusCode, b)
	}
	return b, nil
}

// apiError reads the messages of a standard error body, which are one string or a list.
func apiError(status int, b []byte) *APIError {
	e := &APIError{Status: status}
	var body errorBody
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

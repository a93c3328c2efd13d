package main

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
)

// Client calls the organizer API with a secret key.
type Client struct {
	BaseURL string // for example http://localhost:8080/external/v1
	Key     string
	HTTP    *http.Client
}

// APIError is the standard error body. Branch on Code; Message is for people.
type APIError struct {
	StatusCode int       `json:"statusCode"`
	Code       string    `json:"code"`
	Message    any       `json:"message"`
	Problems   []Problem `json:"problems"`
	RequestID  string    `json:"requestId"`
}

// Problem is one problem of the input: the field path, a code and a sentence.
type Problem struct {
	Path    string `json:"path"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (e *APIError) Error() string {
	return fmt.Sprintf("%d %s: %v (request %s)", e.StatusCode, e.Code, e.Message, e.RequestID)
}

// maxAttempts bounds the retries of a refused request that did nothing.
const maxAttempts = 5

// Do sends method path with body (nil for none) and decodes a 2xx answer into out (nil to
// ignore it). A refusal that did nothing (429 rate_limited, 503 service_unavailable) is retried
// after its Retry-After; any other, a timeout included (the request may have been done), is an
// *APIError.
func (c *Client) Do(ctx context.Context, method, path string, body, out any) error {
	var raw []byte
	if body != nil {
		var err error
		if raw, err = json.Marshal(body); err != nil {
			return err
		}
	}
	for attempt := 1; ; attempt++ {
		req, err := http.NewRequestWithContext(ctx, method, strings.TrimSuffix(c.BaseURL, "/")+path, bytes.NewReader(raw))
		if err != nil {
			return err
		}
		req.Header.Set("Authorization", "Bearer "+c.Key)
		if body != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		res, err := c.HTTP.Do(req)
		if err != nil {
			return err
		}
		answer, err := io.ReadAll(res.Body)
		res.Body.Close()
		if err != nil {
			return err
		}
		if res.StatusCode < 300 {
			if out == nil {
				return nil
			}
			return json.Unmarshal(answer, out)
		}
		apiErr := &APIError{StatusCode: res.StatusCode}
		if err := json.Unmarshal(answer, apiErr); err != nil {
			return fmt.Errorf("%s %s answered %d: %s", method, path, res.StatusCode, answer)
		}
		retryable := apiErr.Code == "rate_limited" || apiErr.Code == "service_unavailable"
		if !retryable || attempt == maxAttempts {
			return apiErr
		}
		wait, _ := strconv.Atoi(res.Header.Get("Retry-After"))
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(max(wait, 1)) * time.Second):
		}
	}
}

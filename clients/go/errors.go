package podium

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// maxErrorBody bounds the error body read; the API's are a few KiB at most.
const maxErrorBody = 1 << 20

// APIError is an answer with a status of 400 or more: the API's standard error body. Branch on
// Code, which is stable (every code is listed in the document's Error schema); Message is for
// people; RequestID identifies the request to Podium's support.
type APIError struct {
	StatusCode int
	Code       ErrorCode
	// Message is the message, its lines joined by "; " when the API sent a list of problems.
	Message string
	// Problems are the input problems of a 400 or 422, each with its field path.
	Problems []Problem
	// RequestID is the body's requestId, else the X-Request-Id header.
	RequestID string
	// RetryAfter is the Retry-After header of a 429 or 503, zero without one.
	RetryAfter time.Duration
	// Body is the answer's body as received.
	Body []byte
}

func (e *APIError) Error() string {
	return fmt.Sprintf("podium: %d %s: %s (request %s)", e.StatusCode, e.Code, e.Message, e.RequestID)
}

// readAPIError reads an error answer; a body that is not the standard one (a proxy's page)
// still gives the status, its text and the request id of the header.
func readAPIError(rsp *http.Response) *APIError {
	body, _ := io.ReadAll(io.LimitReader(rsp.Body, maxErrorBody))
	e := &APIError{
		StatusCode: rsp.StatusCode,
		Message:    http.StatusText(rsp.StatusCode),
		RequestID:  rsp.Header.Get("X-Request-Id"),
		Body:       body,
	}
	if s, err := time.ParseDuration(rsp.Header.Get("Retry-After") + "s"); err == nil && s > 0 {
		e.RetryAfter = s
	}
	var std struct {
		Code      ErrorCode       `json:"code"`
		Message   json.RawMessage `json:"message"`
		Problems  []Problem       `json:"problems"`
		RequestID string          `json:"requestId"`
	}
	if json.Unmarshal(body, &std) != nil || std.Code == "" {
		return e
	}
	e.Code, e.Problems = std.Code, std.Problems
	if std.RequestID != "" {
		e.RequestID = std.RequestID
	}
	var one string
	var many []string
	switch {
	case json.Unmarshal(std.Message, &one) == nil && one != "":
		e.Message = one
	case json.Unmarshal(std.Message, &many) == nil && len(many) > 0:
		e.Message = strings.Join(many, "; ")
	}
	return e
}

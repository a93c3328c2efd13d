package httpserver

import (
	"errors"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/fault"
)

// Error is an HTTP failure with the message a client may see. Message is a string or, for
// validation failures, a list of problems each naming its field path.
type Error struct {
	Status int
	// Code is the stable, machine-readable code of the failure; empty answers the status's
	// default (DefaultCode).
	Code    string
	Message any
	// Problems are the input problems of a 400 or 422, each with its path and code; Message
	// then lists their sentences.
	Problems []fault.Problem
	// Headers are set on the response (for example Retry-After).
	Headers map[string]string
}

// Error implements error.
func (e *Error) Error() string {
	if s, ok := e.Message.(string); ok {
		return s
	}
	return http.StatusText(e.Status)
}

// NewError returns an Error with a single message.
func NewError(status int, message string) *Error {
	return &Error{Status: status, Message: message}
}

// WithCode returns a copy of e answered with code; e, which may be shared, is left as it is.
func (e *Error) WithCode(code string) *Error {
	c := *e
	c.Code = code
	return &c
}

// Invalid reports a request whose input has problems (400 validation_failed); Message lists
// their sentences.
func Invalid(problems []fault.Problem) *Error {
	return &Error{Status: http.StatusBadRequest, Code: CodeValidationFailed, Message: fault.Messages(problems), Problems: problems}
}

// BadRequest reports a client error with one or more problems, each naming its field path.
func BadRequest(problems ...string) *Error {
	return fromFault(fault.NewInvalid(problems...))
}

// Unauthorized reports missing or invalid credentials, code saying which.
func Unauthorized(code, message string) *Error {
	return &Error{Status: http.StatusUnauthorized, Code: code, Message: message}
}

// Forbidden reports valid credentials that may not perform the request, code saying why.
func Forbidden(code, message string) *Error {
	return &Error{Status: http.StatusForbidden, Code: code, Message: message}
}

// TooManyRequests refuses a request for now (429) with message, telling the client to retry
// after retryAfter (Retry-After in whole seconds, rounded up, at least 1).
func TooManyRequests(message string, retryAfter time.Duration) *Error {
	return &Error{
		Status:  http.StatusTooManyRequests,
		Message: message,
		Code:    CodeRateLimited,
		Headers: map[string]string{fiber.HeaderRetryAfter: strconv.Itoa(RetryAfterSeconds(retryAfter))},
	}
}

// RetryAfterSeconds is d in whole seconds, rounded up and at least 1, as Retry-After carries it.
func RetryAfterSeconds(d time.Duration) int {
	return max(1, int(math.Ceil(d.Seconds())))
}

// Body is the standard error body of every non-2xx response.
type Body struct {
	StatusCode int             `json:"statusCode"`
	Code       string          `json:"code"`
	Message    any             `json:"message"`
	Problems   []fault.Problem `json:"problems,omitempty"`
	Error      string          `json:"error"`
	RequestID  string          `json:"requestId,omitempty"`
}

// fromFault is the one mapping of the failure categories to answers. A failure with a
// RetryAfter answers it in Retry-After; an Unavailable one without is retried after
// RetryAfterUnavailable.
func fromFault(f *fault.Error) *Error {
	var msg any = f.Kind.String()
	var problems []fault.Problem
	switch {
	case (f.Kind == fault.Invalid || f.Kind == fault.Unprocessable) && len(f.Problems) > 0:
		// Input problems are always a list, each naming its field path.
		msg, problems = f.Problems, f.Details()
	case len(f.Problems) == 1:
		msg = f.Problems[0]
	case len(f.Problems) > 1:
		msg = f.Problems
	}
	status, ok := statuses[f.Kind]
	if !ok {
		return errInternal
	}
	e := &Error{Status: status, Code: f.Code, Message: msg, Problems: problems}
	switch {
	case f.RetryAfter > 0:
		e.Headers = map[string]string{fiber.HeaderRetryAfter: strconv.Itoa(RetryAfterSeconds(f.RetryAfter))}
	case f.Kind == fault.TooManyRequests:
		e.Headers = map[string]string{fiber.HeaderRetryAfter: strconv.Itoa(RetryAfterSeconds(0))}
	case f.Kind == fault.Unavailable:
		e.Headers = map[string]string{fiber.HeaderRetryAfter: RetryAfterUnavailable}
	}
	return e
}

// statuses are the answers of the categories a client can act on.
var statuses = map[fault.Kind]int{
	fault.NotFound:        http.StatusNotFound,
	fault.Invalid:         http.StatusBadRequest,
	fault.Unprocessable:   http.StatusUnprocessableEntity,
	fault.Conflict:        http.StatusConflict,
	fault.TooManyRequests: http.StatusTooManyRequests,
	fault.Unavailable:     http.StatusServiceUnavailable,
}

// errNoRoute is the answer to a method and path no route serves; peers tell it from a missing
// resource by its code.
var errNoRoute = &Error{Status: http.StatusNotFound, Code: CodeRouteNotFound, Message: "no route for this method and path"}

// errInternal is the answer to our own failure: it leaks nothing.
var errInternal = NewError(http.StatusInternalServerError, "internal error; quote the requestId when reporting it")

// WriteError writes e as the standard error body.
func WriteError(c *fiber.Ctx, e *Error) error {
	for k, v := range e.Headers {
		c.Set(k, v)
	}
	id := RequestID(c)
	if id == "" { // refused before the middleware ran (for example an oversized body)
		id = NewRequestID()
		c.Set(HeaderRequestID, id)
	}
	code := e.Code
	if code == "" {
		code = DefaultCode(e.Status)
	}
	return c.Status(e.Status).JSON(Body{
		StatusCode: e.Status,
		Code:       code,
		Message:    e.Message,
		Problems:   e.Problems,
		Error:      http.StatusText(e.Status),
		RequestID:  id,
	})
}

// classify turns any error from a handler or from Fiber into the *Error the client gets. A
// request that ran out of time is errTimedOut whatever category its error has; a failure
// category is answered as fromFault says; an error without one that means a dependency could
// not be reached (unreachable) is errUnavailable, a 503 with Retry-After, rather than a 500.
func classify(err error) (e *Error, internal bool) {
	if errors.As(err, &e) {
		return e, false
	}
	var fe *fiber.Error
	if errors.As(err, &fe) {
		switch fe.Code {
		case fiber.StatusNotFound:
			return errNoRoute, false
		case fiber.StatusRequestEntityTooLarge:
			return NewError(fe.Code, "request body is too large"), false
		case fiber.StatusBadRequest: // the HTTP server's own words quote the request
			return &Error{Status: fe.Code, Code: CodeBadRequest, Message: "the request is not valid HTTP"}, false
		}
		if fe.Code < 500 {
			return NewError(fe.Code, fe.Message), false
		}
	}
	if timedOut(err) {
		return errTimedOut, true
	}
	if f, ok := fault.Of(err); ok {
		e := fromFault(f)
		return e, e.Status >= 500
	}
	if unreachable(err) {
		return errUnavailable, true
	}
	return errInternal, true
}

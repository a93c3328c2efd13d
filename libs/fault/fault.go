// Package fault is the one set of failure categories every service's use cases return and
// libs/httpserver answers: not found (404), invalid input (400), broken rules (422), conflict
// (409), too many requests (429), unavailable (503) and internal (500). A category decides the
// status, the Retry-After and whether the failure is logged; the problems are what the client
// reads. It imports nothing but the standard library, so domain packages may use it.
package fault

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// Kind is a failure's category.
type Kind int

// The categories.
const (
	// Internal is our own failure: a 500 that tells the client nothing and is logged.
	Internal Kind = iota
	// NotFound is a resource that does not exist for the caller (or is another organizer's).
	NotFound
	// Invalid is input of the wrong shape (what a request schema also refuses).
	Invalid
	// Unprocessable is well-formed input that breaks a business rule.
	Unprocessable
	// Conflict is a request that clashes with the current state.
	Conflict
	// TooManyRequests refuses a request for now; RetryAfter says when to try again.
	TooManyRequests
	// Unavailable is a dependency that failed or could not be reached; nothing was done and
	// the request may be retried after RetryAfter.
	Unavailable
)

var kindNames = [...]string{"internal", "not found", "invalid", "unprocessable", "conflict", "too many requests", "unavailable"}

// String names the category.
func (k Kind) String() string {
	if k < 0 || int(k) >= len(kindNames) {
		return fmt.Sprintf("kind(%d)", int(k))
	}
	return kindNames[k]
}

// Error is a categorised failure.
type Error struct {
	Kind Kind
	// Problems are what the client reads, each naming its field path where there is one. The
	// problems of Invalid and Unprocessable are answered as a list, others' one problem as a
	// string.
	Problems []string
	// Code is the stable, machine-readable code a client branches on (quota_exhausted); empty
	// leaves it to the category's default.
	Code string
	// RetryAfter is when a TooManyRequests or Unavailable request may be retried; zero leaves
	// the choice to the server.
	RetryAfter time.Duration
	// Err is the cause, for logs and errors.Is; the client never reads it.
	Err error
}

// Error implements error.
func (e *Error) Error() string {
	msg := e.Kind.String()
	if len(e.Problems) > 0 {
		msg = strings.Join(e.Problems, "; ")
	}
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Is makes errors.Is(err, fault.ErrX) match any failure of the same category, so a caller can
// test for a category without naming the problems.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Kind == e.Kind && len(t.Problems) == 0 && t.Code == "" && t.Err == nil
}

// Sentinels of each category, for errors.Is.
var (
	ErrNotFound        = &Error{Kind: NotFound}
	ErrInvalid         = &Error{Kind: Invalid}
	ErrUnprocessable   = &Error{Kind: Unprocessable}
	ErrConflict        = &Error{Kind: Conflict}
	ErrTooManyRequests = &Error{Kind: TooManyRequests}
	ErrUnavailable     = &Error{Kind: Unavailable}
)

// Of returns err's *Error, if it is or wraps one.
func Of(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}

// KindOf returns err's category: Internal for an error that is not a *Error.
func KindOf(err error) Kind {
	if e, ok := Of(err); ok {
		return e.Kind
	}
	return Internal
}

// NewNotFound says "<what> not found", what naming the resource ("event evt_…").
func NewNotFound(what string) *Error {
	return &Error{Kind: NotFound, Problems: []string{what + " not found"}}
}

// NewInvalid lists the problems of an input's shape.
func NewInvalid(problems ...string) *Error { return &Error{Kind: Invalid, Problems: problems} }

// NewUnprocessable lists the business rules a request breaks.
func NewUnprocessable(problems ...string) *Error {
	return &Error{Kind: Unprocessable, Problems: problems}
}

// NewConflict lists why a request clashes with the current state.
func NewConflict(problems ...string) *Error { return &Error{Kind: Conflict, Problems: problems} }

// NewTooManyRequests refuses a request until retryAfter has passed.
func NewTooManyRequests(message string, retryAfter time.Duration) *Error {
	return &Error{Kind: TooManyRequests, Problems: []string{message}, RetryAfter: retryAfter}
}

// NewUnavailable says the named dependency failed or could not be reached, cause saying how.
func NewUnavailable(dependency string, cause error) *Error {
	return &Error{Kind: Unavailable, Problems: []string{"the " + dependency + " service is unavailable; retry after the Retry-After seconds"}, Err: cause}
}

// WithCode returns a copy of e with its machine-readable code set; e, which may be a shared
// sentinel, is left as it is.
func (e *Error) WithCode(code string) *Error {
	c := *e
	c.Code = code
	return &c
}

// Problems collects problems in order and returns them as one failure of a category.
type Problems []string

// Add appends a problem.
func (p *Problems) Add(problem string) { *p = append(*p, problem) }

// Addf appends a formatted problem.
func (p *Problems) Addf(format string, args ...any) { *p = append(*p, fmt.Sprintf(format, args...)) }

// Err returns nil without problems, else a failure of kind listing them.
func (p Problems) Err(kind Kind) error {
	if len(p) == 0 {
		return nil
	}
	return &Error{Kind: kind, Problems: p}
}

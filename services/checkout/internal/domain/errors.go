package domain

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// Errors the adapters and use cases return and the HTTP layer maps to statuses.
var (
	// ErrIdempotencyMismatch means an idempotency key was already used with another body.
	ErrIdempotencyMismatch = errors.New("idempotencyKey was already used with a different request body")
	// ErrIdempotencyBusy means the first request with an idempotency key is still running.
	ErrIdempotencyBusy = errors.New("a request with this idempotencyKey is still being processed")
	// ErrPaymentProvider means Stripe failed; nothing was charged.
	ErrPaymentProvider = errors.New("the payment provider is unavailable; nothing was charged, retry")
	// ErrNoPlaceLeft means registration could not confirm an order: its places are gone.
	ErrNoPlaceLeft = errors.New("no place is left for this order")
	// ErrCheckoutNotFound means no checkout matches a reference.
	ErrCheckoutNotFound = errors.New("checkout not found")
	// ErrPromocodeExhausted means a promocode reached its maximum uses when it was reserved.
	ErrPromocodeExhausted = errors.New("the promocode has reached its maximum number of uses")
	// ErrInvalidSignature means a webhook's Stripe-Signature is missing, wrong or too old.
	ErrInvalidSignature = errors.New("the Stripe-Signature header is missing, invalid or too old")
	// ErrInvalidBody means a request body is not JSON of the documented shape.
	ErrInvalidBody = errors.New("body must be a valid JSON object of the documented shape")
)

// NotFoundError says a resource does not exist for the caller (404).
type NotFoundError struct {
	What, ID string
	// Text, when set, is the whole message (a peer's own words).
	Text string
}

// Error implements error.
func (e *NotFoundError) Error() string {
	if e.Text != "" {
		return e.Text
	}
	return fmt.Sprintf("%s %s not found", e.What, e.ID)
}

// RuleError lists the business rules a request breaks (422), each naming its field path.
type RuleError struct {
	Problems []string
	// Promocode is true for InvalidPromocode's answer.
	Promocode bool
}

// Error implements error.
func (e *RuleError) Error() string { return strings.Join(e.Problems, "; ") }

// InvalidPromocode is the one answer to a promocode that is unknown or cannot be used (not
// yet or no longer valid, out of uses, for none of the chosen categories): telling these
// apart would help someone guessing codes.
func InvalidPromocode(code string) error {
	return &RuleError{Problems: []string{fmt.Sprintf("promocode %q is not valid for this purchase", code)}, Promocode: true}
}

// IsInvalidPromocode reports whether err is InvalidPromocode's answer.
func IsInvalidPromocode(err error) bool {
	var re *RuleError
	return errors.As(err, &re) && re.Promocode
}

// Rule returns a RuleError with a single problem.
func Rule(format string, args ...any) error {
	return &RuleError{Problems: []string{fmt.Sprintf(format, args...)}}
}

// ConflictError is a refusal because of the current state elsewhere (409), such as a sold-out
// category reported by registration.
type ConflictError struct {
	Message string
}

// Error implements error.
func (e *ConflictError) Error() string { return e.Message }

// TooManyRequestsError refuses a request for now (429): the caller may retry after
// RetryAfter.
type TooManyRequestsError struct {
	Message    string
	RetryAfter time.Duration
}

// Error implements error.
func (e *TooManyRequestsError) Error() string { return e.Message }

// UnavailableError says a peer service failed or could not be reached (503 with Retry-After);
// Service names it.
type UnavailableError struct {
	Service string
	Err     error
}

// Error implements error.
func (e *UnavailableError) Error() string { return e.Service + " is unavailable: " + e.Err.Error() }

// Unwrap returns the cause.
func (e *UnavailableError) Unwrap() error { return e.Err }

// problems collects rule violations and turns them into a *RuleError.
type problems []string

func (p *problems) add(format string, args ...any) { *p = append(*p, fmt.Sprintf(format, args...)) }

func (p problems) err() error {
	if len(p) == 0 {
		return nil
	}
	return &RuleError{Problems: p}
}

package domain

import (
	"errors"
	"fmt"
	"time"

	"github.com/podiumhq/podium/libs/fault"
)

// Codes of the failures a client can act on, as the error body's code.
const (
	CodeIdempotencyKeyReused = "idempotency_key_reused"
	CodeIdempotencyKeyInUse  = "idempotency_key_in_use"
	CodePromocodeInvalid     = "promocode_invalid"
	CodeQuotaExhausted       = "quota_exhausted"
	CodeSignatureInvalid     = "signature_invalid"
)

// Failures the adapters and use cases return. Those a client reads are failure categories
// (libs/fault), which the HTTP server answers; the others are signals between the store and
// the use cases.
var (
	// ErrIdempotencyMismatch means an idempotency key was already used with another body.
	ErrIdempotencyMismatch = fault.NewUnprocessable("idempotencyKey was already used with a different request body").WithCode(CodeIdempotencyKeyReused)
	// ErrIdempotencyBusy means the first request with an idempotency key is still running: the
	// client retries after a second.
	ErrIdempotencyBusy = &fault.Error{Kind: fault.Conflict, Code: CodeIdempotencyKeyInUse, RetryAfter: time.Second,
		Problems: []string{"a request with this idempotencyKey is still being processed"}}
	// ErrCheckoutNotFound means no checkout matches a reference.
	ErrCheckoutNotFound = fault.NewNotFound("checkout")
	// ErrPromocodeExhausted means a promocode reached its maximum uses when it was reserved;
	// the use cases answer it as an invalid promocode, or refund a late payment.
	ErrPromocodeExhausted = errors.New("the promocode has reached its maximum number of uses")
	// ErrInvalidSignature means a webhook's Stripe-Signature is missing, wrong or too old.
	ErrInvalidSignature = fault.NewInvalid("Stripe-Signature header is missing, invalid or too old").WithCode(CodeSignatureInvalid)
	// ErrInvalidBody means a request body is not JSON of the documented shape.
	ErrInvalidBody = fault.NewInvalid("body must be a valid JSON object of the documented shape")
)

// errInvalidPromocode marks InvalidPromocode's answer among other broken rules.
var errInvalidPromocode = errors.New("invalid promocode")

// InvalidPromocode is the one answer to a promocode that is unknown or cannot be used (not
// yet or no longer valid, out of uses, for none of the chosen categories): telling these
// apart would help someone guessing codes.
func InvalidPromocode(code string) error {
	return &fault.Error{Kind: fault.Unprocessable, Code: CodePromocodeInvalid, Problems: []string{fmt.Sprintf("promocode %q is not valid for this purchase", code)}, Err: errInvalidPromocode}
}

// IsInvalidPromocode reports whether err is InvalidPromocode's answer.
func IsInvalidPromocode(err error) bool { return errors.Is(err, errInvalidPromocode) }

package domain

import (
	"errors"
	"fmt"
	"strings"
)

// Errors the adapters and use cases return and the HTTP layer maps to statuses.
var (
	// ErrCatalogUnavailable means the catalog could not be asked about the event.
	ErrCatalogUnavailable = errors.New("the event catalog is unavailable")
)

// NotFoundError means a resource does not exist for the caller (or belongs to another
// organizer, which is told the same way).
type NotFoundError struct {
	// What names the resource, for example "ticket tkt_…".
	What string
}

// Error implements error.
func (e *NotFoundError) Error() string { return e.What + " not found" }

// NotFound returns a *NotFoundError for the resource kind and id.
func NotFound(kind, id string) error { return &NotFoundError{What: kind + " " + id} }

// ValidationError lists problems of an input's shape (what the request schema also refuses),
// each naming its field path.
type ValidationError struct {
	Problems []string
}

// Error implements error.
func (e *ValidationError) Error() string { return "invalid input: " + strings.Join(e.Problems, "; ") }

// RuleError lists broken business rules (eligibility, custom fields, supplements, team size),
// each naming its field path.
type RuleError struct {
	Problems []string
}

// Error implements error.
func (e *RuleError) Error() string { return "business rules broken: " + strings.Join(e.Problems, "; ") }

// ConflictError is a request that clashes with the current state: no place left, a bib
// number taken, a registration already cancelled.
type ConflictError struct {
	Message string
	// Reason is a machine-readable cause where the contract names one (NO_PLACE_LEFT).
	Reason string
}

// Error implements error.
func (e *ConflictError) Error() string { return e.Message }

// QuotaError means a category has fewer places left than a change needs.
func QuotaError(categoryID string, left int) error {
	if left <= 0 {
		return &ConflictError{Message: fmt.Sprintf("category %s is sold out", categoryID), Reason: ReasonNoPlaceLeft}
	}
	return &ConflictError{Message: fmt.Sprintf("category %s has only %d places left", categoryID, left), Reason: ReasonNoPlaceLeft}
}

// BibTakenError means the bib number is already used by another registration of the event.
func BibTakenError(bib int64) error {
	return &ConflictError{Message: fmt.Sprintf("bib number %d is already taken in this event", bib), Reason: "BIB_TAKEN"}
}

// ReasonNoPlaceLeft is the conflict reason of a category without places.
const ReasonNoPlaceLeft = "NO_PLACE_LEFT"

// ReasonHoldReleased is the conflict reason of a hold whose hold id was released before it
// could be made.
const ReasonHoldReleased = "HOLD_RELEASED"

// problems collects rule problems in order.
type problems []string

func (p *problems) addf(path, format string, args ...any) {
	*p = append(*p, path+": "+fmt.Sprintf(format, args...))
}

func (p problems) rules() error {
	if len(p) == 0 {
		return nil
	}
	return &RuleError{Problems: p}
}

func (p problems) validation() error {
	if len(p) == 0 {
		return nil
	}
	return &ValidationError{Problems: p}
}

// ErrDuplicateHold means an order for the same checkout hold id already exists.
var ErrDuplicateHold = errors.New("an order for this hold id already exists")

// IsDuplicateHold reports whether err is ErrDuplicateHold.
func IsDuplicateHold(err error) bool { return errors.Is(err, ErrDuplicateHold) }

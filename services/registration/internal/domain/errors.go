package domain

import (
	"errors"
	"fmt"

	"github.com/podiumhq/podium/libs/fault"
)

// ReasonNoPlaceLeft is the reason an order.unfulfillable event gives for a paid order whose
// category has no place left.
const ReasonNoPlaceLeft = "NO_PLACE_LEFT"

// Codes of the conflicts a client can act on, as the error body's code.
const (
	// CodeQuotaExhausted is a category without the places a request needs.
	CodeQuotaExhausted = "quota_exhausted"
	// CodeBibTaken is a bib number another registration of the event uses.
	CodeBibTaken = "bib_taken"
	// CodeHoldReleased is a hold whose hold id was released before it could be made.
	CodeHoldReleased = "hold_released"
	// CodeRegistrationCancelled is a change to a cancelled registration.
	CodeRegistrationCancelled = "registration_cancelled"
)

// NotFound says the resource of kind with id does not exist for the caller (or belongs to
// another organizer, which is told the same way).
func NotFound(kind, id string) error { return fault.NewNotFound(kind + " " + id) }

// QuotaError means a category has fewer places left than a change needs.
func QuotaError(categoryID string, left int) error {
	if left <= 0 {
		return fault.NewConflict(fmt.Sprintf("category %s is sold out", categoryID)).WithCode(CodeQuotaExhausted)
	}
	return fault.NewConflict(fmt.Sprintf("category %s has only %d places left", categoryID, left)).WithCode(CodeQuotaExhausted)
}

// BibTakenError means the bib number is already used by another registration of the event.
func BibTakenError(bib int64) error {
	return fault.NewConflict(fmt.Sprintf("bib number %d is already taken in this event", bib)).WithCode(CodeBibTaken)
}

// ErrDuplicateHold means an order for the same checkout hold id already exists.
var ErrDuplicateHold = errors.New("an order for this hold id already exists")

// IsDuplicateHold reports whether err is ErrDuplicateHold.
func IsDuplicateHold(err error) bool { return errors.Is(err, ErrDuplicateHold) }

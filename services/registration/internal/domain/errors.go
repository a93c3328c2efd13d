package domain

import (
	"errors"
	"fmt"

	"github.com/podiumhq/podium/libs/fault"
)

// Reasons of the conflicts the contract names.
const (
	// ReasonNoPlaceLeft is the conflict reason of a category without places.
	ReasonNoPlaceLeft = "NO_PLACE_LEFT"
	// ReasonBibTaken is the conflict reason of a bib number another registration of the event
	// uses.
	ReasonBibTaken = "BIB_TAKEN"
	// ReasonHoldReleased is the conflict reason of a hold whose hold id was released before it
	// could be made.
	ReasonHoldReleased = "HOLD_RELEASED"
)

// NotFound says the resource of kind with id does not exist for the caller (or belongs to
// another organizer, which is told the same way).
func NotFound(kind, id string) error { return fault.NewNotFound(kind + " " + id) }

// QuotaError means a category has fewer places left than a change needs.
func QuotaError(categoryID string, left int) error {
	if left <= 0 {
		return fault.NewConflict(fmt.Sprintf("category %s is sold out", categoryID)).WithReason(ReasonNoPlaceLeft)
	}
	return fault.NewConflict(fmt.Sprintf("category %s has only %d places left", categoryID, left)).WithReason(ReasonNoPlaceLeft)
}

// BibTakenError means the bib number is already used by another registration of the event.
func BibTakenError(bib int64) error {
	return fault.NewConflict(fmt.Sprintf("bib number %d is already taken in this event", bib)).WithReason(ReasonBibTaken)
}

// ErrDuplicateHold means an order for the same checkout hold id already exists.
var ErrDuplicateHold = errors.New("an order for this hold id already exists")

// IsDuplicateHold reports whether err is ErrDuplicateHold.
func IsDuplicateHold(err error) bool { return errors.Is(err, ErrDuplicateHold) }

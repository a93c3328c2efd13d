package domain

import (
	"errors"

	"github.com/podiumhq/podium/libs/fault"
)

// Errors the adapters return. The not-found ones are failures of their libs/fault category,
// answered 404; invalid input is a fault.Invalid failure listing every problem.
var (
	// ErrOrganizerNotFound means no organizer has the given id.
	ErrOrganizerNotFound = fault.NewNotFound("organizer")
	// ErrKeyNotFound means no key has the given id or hash.
	ErrKeyNotFound = fault.NewNotFound("key")
	// ErrMemberNotFound means the organization has no member with the given id.
	ErrMemberNotFound = fault.NewNotFound("member")
	// ErrDuplicateMember means the organization already has a member with the e-mail.
	ErrDuplicateMember = fault.NewConflict("email is already a member of this organization").WithCode("member_exists")
	// ErrLastOwner refuses to remove or demote the organization's last owner.
	ErrLastOwner = fault.NewConflict("an organization must keep at least one owner").WithCode("last_owner")
	// ErrDuplicateKeyHash means a key with the same hash is already stored.
	ErrDuplicateKeyHash = errors.New("a key with this hash already exists")
)

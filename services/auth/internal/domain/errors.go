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
	// ErrDuplicateKeyHash means a key with the same hash is already stored.
	ErrDuplicateKeyHash = errors.New("a key with this hash already exists")
)

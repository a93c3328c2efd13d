package domain

import (
	"errors"
	"strings"
)

// Errors the adapters return and the HTTP layer maps to statuses.
var (
	// ErrOrganizerNotFound means no organizer has the given id.
	ErrOrganizerNotFound = errors.New("organizer not found")
	// ErrKeyNotFound means no key has the given id or hash.
	ErrKeyNotFound = errors.New("key not found")
	// ErrDuplicateKeyHash means a key with the same hash is already stored.
	ErrDuplicateKeyHash = errors.New("a key with this hash already exists")
)

// ValidationError lists every problem of an input, each naming its field path.
type ValidationError struct {
	Problems []string
}

// Error implements error.
func (e *ValidationError) Error() string {
	return "invalid input: " + strings.Join(e.Problems, "; ")
}

// problems collects validation problems and turns them into a *ValidationError.
type problems []string

func (p *problems) add(problem string) { *p = append(*p, problem) }

func (p problems) err() error {
	if len(p) == 0 {
		return nil
	}
	return &ValidationError{Problems: p}
}

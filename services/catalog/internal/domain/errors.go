package domain

import (
	"errors"
	"strings"
)

// ErrUnsupportedMediaType means an import body is neither YAML nor JSON.
var ErrUnsupportedMediaType = errors.New("the event file must be sent as application/yaml, application/x-yaml, text/yaml or application/json")

// NotFoundError means no event with the given reference is visible to the caller: it does not
// exist, belongs to another organizer, or is not public on the browser surface.
type NotFoundError struct {
	// Ref is the event id (evt_…) or, on the admin API, the external id; with Category set,
	// the category id (cat_…) whose event was asked for.
	Ref      string
	Category bool
}

// Error implements error.
func (e *NotFoundError) Error() string {
	if e.Category {
		return "category " + e.Ref + " not found"
	}
	return "event " + e.Ref + " not found"
}

// ValidationError lists every problem of an input, each naming its field path.
type ValidationError struct {
	Problems []string
}

// Error implements error.
func (e *ValidationError) Error() string {
	return "invalid input: " + strings.Join(e.Problems, "; ")
}

// ConflictError lists why a change cannot be applied to the stored state, for example an
// import that would remove a category with places taken.
type ConflictError struct {
	Problems []string
}

// Error implements error.
func (e *ConflictError) Error() string {
	return "conflict: " + strings.Join(e.Problems, "; ")
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

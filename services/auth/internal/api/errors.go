// Package api serves the auth service's HTTP API: the operators' admin API under /admin,
// guarded by the operator token, and the gateway's internal API under /internal, guarded by
// the internal identity token of a service principal.
package api

import (
	"errors"
	"net/http"

	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/services/auth/internal/domain"
)

// MapError translates domain errors into the standard error responses; others become a 500.
func MapError(err error) *httpserver.Error {
	var ve *domain.ValidationError
	switch {
	case errors.As(err, &ve):
		return invalid(ve.Problems...)
	case errors.Is(err, domain.ErrOrganizerNotFound):
		return httpserver.NotFound("organizer not found")
	case errors.Is(err, domain.ErrKeyNotFound):
		return httpserver.NotFound("key not found")
	}
	return nil
}

// invalid reports validation problems, always as a list so clients handle one shape.
func invalid(problems ...string) *httpserver.Error {
	return &httpserver.Error{Status: http.StatusBadRequest, Message: problems}
}

// Package api serves the catalog's HTTP API: the external API's catalog operations on the
// organizer and browser surfaces (reached through the gateway, with its identity token), the
// internal API for registration and checkout, and the operators' admin API, guarded by the
// operator token.
package api

import (
	"errors"
	"net/http"

	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/services/catalog/internal/domain"
)

// MapError translates domain errors into the standard error responses; others become a 500.
func MapError(err error) *httpserver.Error {
	var (
		nf *domain.NotFoundError
		ve *domain.ValidationError
		ce *domain.ConflictError
	)
	switch {
	case errors.As(err, &nf):
		return httpserver.NotFound(nf.Error())
	case errors.As(err, &ve):
		return &httpserver.Error{Status: http.StatusBadRequest, Message: ve.Problems}
	case errors.As(err, &ce):
		return &httpserver.Error{Status: http.StatusConflict, Message: ce.Problems}
	case errors.Is(err, domain.ErrUnsupportedMediaType):
		return httpserver.NewError(http.StatusUnsupportedMediaType, err.Error())
	}
	return nil
}

package api

import (
	"errors"
	"net/http"

	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/services/registration/internal/domain"
)

// MapError translates domain errors into the standard error responses; others become a 500.
func MapError(err error) *httpserver.Error {
	var (
		ve *domain.ValidationError
		re *domain.RuleError
		ce *domain.ConflictError
		nf *domain.NotFoundError
		tm *domain.TooManyRequestsError
	)
	switch {
	case errors.As(err, &ve):
		return &httpserver.Error{Status: http.StatusBadRequest, Message: ve.Problems}
	case errors.As(err, &re):
		return &httpserver.Error{Status: http.StatusUnprocessableEntity, Message: re.Problems}
	case errors.As(err, &ce):
		return httpserver.Conflict(ce.Message)
	case errors.As(err, &nf):
		return httpserver.NotFound(nf.Error())
	case errors.As(err, &tm):
		return httpserver.TooManyRequests(tm.Message, tm.RetryAfter)
	case errors.Is(err, domain.ErrCatalogUnavailable):
		return &httpserver.Error{Status: http.StatusServiceUnavailable, Message: "the event catalog is unavailable; retry later",
			Headers: map[string]string{"Retry-After": "1"}}
	}
	return nil
}

package api

import (
	"errors"
	"net/http"

	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// MapError translates domain errors into the standard error responses; others become a 500.
func MapError(err error) *httpserver.Error {
	var (
		notFound    *domain.NotFoundError
		rule        *domain.RuleError
		conflict    *domain.ConflictError
		unavailable *domain.UnavailableError
		limited     *domain.TooManyRequestsError
	)
	switch {
	case errors.As(err, &notFound):
		return httpserver.NotFound(notFound.Error())
	case errors.As(err, &rule):
		return &httpserver.Error{Status: http.StatusUnprocessableEntity, Message: rule.Problems}
	case errors.As(err, &limited):
		return httpserver.TooManyRequests(limited.Message, limited.RetryAfter)
	case errors.As(err, &conflict):
		return httpserver.Conflict(conflict.Message)
	case errors.Is(err, domain.ErrIdempotencyMismatch):
		return httpserver.NewError(http.StatusUnprocessableEntity, domain.ErrIdempotencyMismatch.Error())
	case errors.Is(err, domain.ErrIdempotencyBusy):
		return &httpserver.Error{Status: http.StatusConflict, Message: domain.ErrIdempotencyBusy.Error(), Headers: map[string]string{"Retry-After": "1"}}
	case errors.Is(err, domain.ErrNoPlaceLeft):
		return httpserver.Conflict("no place is left in the chosen category")
	case errors.Is(err, domain.ErrInvalidSignature):
		return httpserver.BadRequest(domain.ErrInvalidSignature.Error())
	case errors.Is(err, domain.ErrInvalidBody):
		return httpserver.BadRequest(domain.ErrInvalidBody.Error())
	case errors.Is(err, domain.ErrPaymentProvider):
		return httpserver.NewError(http.StatusBadGateway, domain.ErrPaymentProvider.Error())
	case errors.As(err, &unavailable):
		// 503 with Retry-After, as the gateway answers for an owner it cannot reach: the
		// client retries (a session with the same idempotencyKey) once the peer is back.
		return &httpserver.Error{
			Status:  http.StatusServiceUnavailable,
			Message: "the " + unavailable.Service + " service is unavailable; nothing was charged, retry",
			Headers: map[string]string{"Retry-After": httpserver.RetryAfterUnavailable},
		}
	}
	return nil
}

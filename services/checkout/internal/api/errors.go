package api

import (
	"errors"
	"net/http"

	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// MapError answers what no failure category covers (libs/httpserver answers those): a
// request whose idempotency key is still running is a conflict the client retries after a
// second.
func MapError(err error) *httpserver.Error {
	if errors.Is(err, domain.ErrIdempotencyBusy) {
		return &httpserver.Error{Status: http.StatusConflict, Message: domain.ErrIdempotencyBusy.Error(), Headers: map[string]string{fiber.HeaderRetryAfter: "1"}}
	}
	return nil
}

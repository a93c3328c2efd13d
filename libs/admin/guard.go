// Package admin is what the services' admin APIs share: the operator-token guard of their
// routes and the operator commands' client of them (from the environment, its calls and the
// explanation of a failure). Package command holds the commands' flags and output.
package admin

import (
	"crypto/sha256"
	"crypto/subtle"
	"net/http"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/httpserver"
)

// RequireOperator refuses, with 401, requests without the operator token as a bearer token;
// service names the realm of the challenge ("podium-auth-admin"). The token and the candidate
// are compared as SHA-256 digests in constant time, so neither their content nor their length
// shows in the timing.
func RequireOperator(service, token string) fiber.Handler {
	want := sha256.Sum256([]byte(token))
	realm := `Bearer realm="podium-` + service + `-admin"`
	refuse := func(msg string) error {
		return &httpserver.Error{Status: http.StatusUnauthorized, Message: msg, Headers: map[string]string{fiber.HeaderWWWAuthenticate: realm}}
	}
	return func(c *fiber.Ctx) error {
		header := c.Get(fiber.HeaderAuthorization)
		if header == "" {
			return refuse("the admin API requires Authorization: Bearer <operator token>")
		}
		scheme, got, ok := strings.Cut(header, " ")
		if !ok || !strings.EqualFold(scheme, "Bearer") {
			return refuse("the Authorization header must be Bearer <operator token>")
		}
		sum := sha256.Sum256([]byte(strings.TrimSpace(got)))
		if subtle.ConstantTimeCompare(sum[:], want[:]) != 1 {
			return refuse("the operator token is invalid")
		}
		return c.Next()
	}
}

package httpserver

import (
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"

	"github.com/gofiber/fiber/v2"
)

// RetryAfterUnavailable is the Retry-After, in seconds, of an answer to a request whose
// dependency (a database, a peer) could not be reached: a restart or a failover is over within
// seconds, a longer outage is retried as often as this says.
const RetryAfterUnavailable = "2"

// errUnavailable is the answer to a request that failed because a dependency could not be
// reached. The client may retry it: nothing it asked for was done, or it was done in a
// transaction that the lost connection rolled back.
var errUnavailable = &Error{
	Status:  http.StatusServiceUnavailable,
	Message: "a service this request needs is unavailable; retry after the Retry-After seconds",
	Headers: map[string]string{fiber.HeaderRetryAfter: RetryAfterUnavailable},
}

// SQL states of a server that cannot take the connection or has just ended it: class 08
// (connection exception), and admin_shutdown, crash_shutdown and cannot_connect_now, which a
// restarting or failing-over Postgres sends.
var sqlUnavailable = map[string]bool{"57P01": true, "57P02": true, "57P03": true}

// unreachable reports whether err means a dependency could not be reached or dropped the
// connection: a refused, reset or failed dial or read (a *net.OpError, as a database driver's
// connect error wraps it), a connection cut mid-answer, or a server refusing connections.
func unreachable(err error) bool {
	var op *net.OpError
	if errors.As(err, &op) {
		return true
	}
	for _, target := range []error{io.ErrUnexpectedEOF, net.ErrClosed, syscall.ECONNREFUSED, syscall.ECONNRESET, syscall.EPIPE} {
		if errors.Is(err, target) {
			return true
		}
	}
	var s sqlStater
	if errors.As(err, &s) {
		code := s.SQLState()
		return strings.HasPrefix(code, "08") || sqlUnavailable[code]
	}
	return false
}

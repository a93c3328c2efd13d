package httpserver

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/gofiber/fiber/v2"
)

// RetryAfterTimeout is the Retry-After, in seconds, of an answer to a request that ran out of
// time: a stalled dependency is given a moment before the client tries again.
const RetryAfterTimeout = "2"

// errTimedOut is the answer to a request that ran out of time.
var errTimedOut = &Error{
	Status:  http.StatusServiceUnavailable,
	Code:    CodeTimeout,
	Message: "the request did not complete in time; retry after the Retry-After seconds",
	Headers: map[string]string{fiber.HeaderRetryAfter: RetryAfterTimeout},
}

// SQL states of a statement cancelled by statement_timeout (query_canceled) and of a lock not
// granted within lock_timeout (lock_not_available).
const (
	sqlQueryCanceled    = "57014"
	sqlLockNotAvailable = "55P03"
)

// sqlStater is a database error that names its SQLSTATE (pgconn.PgError is one), so this
// package recognises Postgres timeouts without importing a driver.
type sqlStater interface{ SQLState() string }

// timedOut reports whether err means the request ran out of time: its deadline (or a deadline
// below it, such as a pool acquire's) passed, or Postgres cancelled a statement at its
// statement_timeout or gave up waiting for a lock at its lock_timeout.
func timedOut(err error) bool {
	if errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	var s sqlStater
	if errors.As(err, &s) {
		switch s.SQLState() {
		case sqlQueryCanceled, sqlLockNotAvailable:
			return true
		}
	}
	return false
}

// deadline gives the request's UserContext a deadline d from now.
func deadline(d time.Duration) fiber.Handler {
	return func(c *fiber.Ctx) error {
		ctx, cancel := context.WithTimeout(c.UserContext(), d)
		defer cancel()
		c.SetUserContext(ctx)
		return c.Next()
	}
}

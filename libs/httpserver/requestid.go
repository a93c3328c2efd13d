package httpserver

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"strings"

	"github.com/gofiber/fiber/v2"
)

// HeaderRequestID carries the request id between the gateway, the owners and the client.
const HeaderRequestID = "X-Request-Id"

const requestIDLocal = "httpserver.requestID"

// requestIDMiddleware assigns each request an id and echoes it in the response. With trust set,
// an incoming well-formed id is kept (owners behind the gateway); otherwise a new one is made.
func requestIDMiddleware(trust bool) fiber.Handler {
	return func(c *fiber.Ctx) error {
		id := ""
		if trust {
			if in := c.Get(HeaderRequestID); validRequestID(in) {
				id = strings.Clone(in) // it outlives the handler in logs, spans and peers' calls
			}
		}
		if id == "" {
			id = NewRequestID()
		}
		c.Locals(requestIDLocal, id)
		c.SetUserContext(WithRequestID(c.UserContext(), id))
		c.Set(HeaderRequestID, id)
		return c.Next()
	}
}

// RequestID returns the id assigned to the request.
func RequestID(c *fiber.Ctx) string {
	id, _ := c.Locals(requestIDLocal).(string)
	return id
}

type requestIDKey struct{}

// RequestIDFrom returns the request id a request's context carries ("" outside a request), so
// that calls made on the request's behalf forward it, as they forward its trace context.
func RequestIDFrom(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey{}).(string)
	return id
}

// WithRequestID returns ctx carrying the request id id, for work done on a request's behalf
// outside its handler.
func WithRequestID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, requestIDKey{}, id)
}

// NewRequestID returns a fresh random request id.
func NewRequestID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return "req_" + hex.EncodeToString(b[:])
}

func validRequestID(s string) bool {
	if len(s) == 0 || len(s) > 128 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isIDChar(s[i]) {
			return false
		}
	}
	return true
}

func isIDChar(ch byte) bool {
	switch {
	case ch >= 'a' && ch <= 'z', ch >= 'A' && ch <= 'Z', ch >= '0' && ch <= '9':
		return true
	}
	return ch == '-' || ch == '_' || ch == '.'
}

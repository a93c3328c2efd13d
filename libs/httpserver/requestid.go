package httpserver

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"math/rand/v2"
	"strings"

	"github.com/gofiber/fiber/v2"
)

// HeaderRequestID carries the request id between the gateway, the owners and the client.
const HeaderRequestID = "X-Request-Id"

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
		c.SetUserContext(WithRequestID(c.UserContext(), id))
		c.Set(HeaderRequestID, id)
		return c.Next()
	}
}

// RequestID returns the id assigned to the request ("" before the middleware ran).
func RequestID(c *fiber.Ctx) string { return RequestIDFrom(c.UserContext()) }

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

// NewRequestID returns a fresh random request id: 96 bits from the runtime's per-thread
// ChaCha8 generator, unguessable like the operating system's randomness and without its system
// call on every request (an id names a request; it grants nothing).
func NewRequestID() string {
	var b [12]byte
	binary.LittleEndian.PutUint64(b[:8], rand.Uint64()) //nolint:gosec // ChaCha8 seeded by the runtime: unguessable, and an id is no secret
	binary.LittleEndian.PutUint32(b[8:], rand.Uint32()) //nolint:gosec // as above
	var out [len("req_") + 2*len(b)]byte
	copy(out[:], "req_")
	hex.Encode(out[len("req_"):], b[:])
	return string(out[:])
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

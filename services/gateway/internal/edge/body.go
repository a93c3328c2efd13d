package edge

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/hashicorp/golang-lru/v2/expirable"

	"github.com/podiumhq/podium/libs/apispec"
	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/httpserver"
)

const opCheckoutSession = "browserCheckoutSession"

var errNotJSON = httpserver.NewError(http.StatusUnsupportedMediaType, "request bodies must be sent as Content-Type: application/json")

// validateBody checks an operation's body against its schema in the OpenAPI document, reporting
// every problem by field path, then with extra when set (a check that depends on the caller's
// key, named by scope). Large bodies that passed are remembered by digest of the operation,
// the scope and the bytes: a retry of the same request (the idempotent checkout-session
// replay) costs a hash instead of a schema walk and a decode, which for a signature of a few
// hundred points is over a millisecond.
func (g *Gateway) validateBody(c *fiber.Ctx, op apispec.Operation, scope string, extra func([]byte) error) error {
	if !op.HasBody {
		return nil
	}
	body := c.Body()
	var digest [sha256.Size]byte
	remember := len(body) >= rememberBodiesFrom && g.Validated != nil
	if remember {
		digest = bodyDigest(op.ID, scope, body)
		if g.Validated.Contains(digest) {
			return nil
		}
	}
	err := g.Validator.ValidateRequest(op.ID, body)
	var ve *apispec.ValidationError
	if errors.As(err, &ve) {
		return httpserver.Invalid(ve.Problems)
	}
	if err == nil && extra != nil {
		err = extra(body)
	}
	if err == nil && remember {
		g.Validated.Add(digest, struct{}{})
	}
	return err
}

// bodyTooLarge returns the check that refuses a body larger than op accepts (its MaxBodyBytes;
// none for an operation that takes no body) with 413, naming the limit. Routes run it before
// anything else, so an oversized body costs no key lookup, no limit and no validation.
func bodyTooLarge(op apispec.Operation) func(*fiber.Ctx) error {
	return maxBody(op.MaxBodyBytes, "this operation")
}

// maxBody returns the check that refuses a body over limit bytes with 413; what names the
// route in the message.
func maxBody(limit int, what string) func(*fiber.Ctx) error {
	refusal := httpserver.NewError(http.StatusRequestEntityTooLarge,
		"request body too large: "+what+" accepts at most "+strconv.Itoa(limit)+" bytes")
	if limit == 0 {
		refusal = httpserver.NewError(http.StatusRequestEntityTooLarge, "request body too large: "+what+" takes no body")
	}
	return func(c *fiber.Ctx) error {
		if len(c.Request().Body()) > limit {
			return refusal
		}
		return nil
	}
}

// checkBody refuses a body of an operation that takes one unless it is JSON that passes
// validateBody.
func (g *Gateway) checkBody(c *fiber.Ctx, op apispec.Operation, scope string, extra func([]byte) error) error {
	if err := checkContentType(c, op); err != nil {
		return err
	}
	return g.validateBody(c, op, scope, extra)
}

// checkContentType refuses a body of an operation that takes one unless it is sent as JSON.
func checkContentType(c *fiber.Ctx, op apispec.Operation) error {
	if !op.HasBody || len(c.Body()) == 0 {
		return nil
	}
	mt, _, err := mime.ParseMediaType(c.Get(fiber.HeaderContentType))
	if err != nil || mt != fiber.MIMEApplicationJSON {
		return errNotJSON
	}
	return nil
}

// rememberBodiesFrom is the body size from which hashing is cheaper than validating again.
const rememberBodiesFrom = 2048

// ValidatedBodies is the set of digests of large bodies that passed validation.
type ValidatedBodies = expirable.LRU[[sha256.Size]byte, struct{}]

// NewValidatedBodies returns a set of up to size digests, each kept for ttl.
func NewValidatedBodies(size int, ttl time.Duration) *ValidatedBodies {
	return expirable.NewLRU[[sha256.Size]byte, struct{}](size, nil, ttl)
}

func bodyDigest(opID, scope string, body []byte) [sha256.Size]byte {
	return digest([]byte(opID), []byte(scope), body)
}

// digest is the SHA-256 of parts, each but the last followed by a zero byte so that no two
// lists of parts run together alike.
func digest(parts ...[]byte) [sha256.Size]byte {
	h := sha256.New()
	for i, part := range parts {
		h.Write(part)
		if i < len(parts)-1 {
			h.Write([]byte{0})
		}
	}
	var d [sha256.Size]byte
	h.Sum(d[:0])
	return d
}

// redirectsAllowed checks that a checkout session's successUrl and cancelUrl are on an origin
// the publishable key allows (the schema already checked they are URIs).
func redirectsAllowed(body []byte, allowed []string) error {
	var urls struct {
		SuccessURL string `json:"successUrl"`
		CancelURL  string `json:"cancelUrl"`
	}
	if err := json.Unmarshal(body, &urls); err != nil {
		return httpserver.BadRequest("body must be a JSON object")
	}
	var problems []fault.Problem
	for _, f := range []struct{ name, value string }{{"successUrl", urls.SuccessURL}, {"cancelUrl", urls.CancelURL}} {
		if !slices.Contains(allowed, originOf(f.value)) {
			problems = append(problems, fault.Problem{Path: f.name, Code: codeRedirectNotAllowed,
				Message: f.name + " must be on an allowed origin of the publishable key"})
		}
	}
	if problems != nil {
		return httpserver.Invalid(problems).WithCode(codeRedirectNotAllowed)
	}
	return nil
}

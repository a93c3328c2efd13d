package edge

import (
	"encoding/json"
	"errors"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/apispec"
	"github.com/podiumhq/podium/libs/httpserver"
)

const opCheckoutSession = "browserCheckoutSession"

var errNotJSON = httpserver.NewError(http.StatusUnsupportedMediaType, "request bodies must be sent as Content-Type: application/json")

// validateBody checks an operation's body against its schema in the OpenAPI document and
// reports every problem by field path.
func (g *Gateway) validateBody(c *fiber.Ctx, op apispec.Operation) error {
	if !op.HasBody {
		return nil
	}
	body := c.Body()
	if len(body) > 0 {
		mt, _, err := mime.ParseMediaType(c.Get(fiber.HeaderContentType))
		if err != nil || mt != fiber.MIMEApplicationJSON {
			return errNotJSON
		}
	}
	err := g.Validator.ValidateRequest(op.ID, body)
	var ve *apispec.ValidationError
	if errors.As(err, &ve) {
		return &httpserver.Error{Status: http.StatusBadRequest, Message: ve.Problems}
	}
	return err
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
	var problems []string
	for _, f := range []struct{ name, value string }{{"successUrl", urls.SuccessURL}, {"cancelUrl", urls.CancelURL}} {
		if !slices.Contains(allowed, originOf(f.value)) {
			problems = append(problems, f.name+" must be on an allowed origin of the publishable key")
		}
	}
	if problems != nil {
		return &httpserver.Error{Status: http.StatusBadRequest, Message: problems}
	}
	return nil
}

// originOf returns scheme://host[:port] of u in lowercase, without a default port.
func originOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return ""
	}
	scheme, host := strings.ToLower(u.Scheme), strings.ToLower(u.Hostname())
	port := u.Port()
	if (scheme == "https" && port == "443") || (scheme == "http" && port == "80") {
		port = ""
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port != "" {
		return scheme + "://" + host + ":" + port
	}
	return scheme + "://" + host
}

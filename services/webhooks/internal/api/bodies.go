package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/services/webhooks/internal/domain"
)

// The request checks of the routes: the shape of each body and query (the business rules are
// domain.Rules'), answered in the standard error format.

// Bounds of a page.
const (
	defaultLimit = 50
	maxLimit     = 100
)

// members decodes the body as a JSON object; an empty body is one without members unless
// required. Members the route does not read are ignored, as the OpenAPI document allows.
func members(c *fiber.Ctx, required bool) (map[string]json.RawMessage, error) {
	if len(bytes.TrimSpace(c.Body())) == 0 {
		if required {
			return nil, httpserver.BadRequest("body is required: send a JSON object")
		}
		return map[string]json.RawMessage{}, nil
	}
	var m map[string]json.RawMessage
	if err := httpserver.DecodeJSON(c, &m); err != nil {
		return nil, err
	}
	if m == nil {
		return nil, httpserver.BadRequest("body must be a valid JSON object of the documented shape")
	}
	return m, nil
}

// field decodes member name of m into v when m has it (a null is absent); a value of another
// type adds a problem.
func field[T any](m map[string]json.RawMessage, name, want string, v **T, p *fault.Problems) {
	raw, ok := m[name]
	if !ok || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return
	}
	var x T
	if err := json.Unmarshal(raw, &x); err != nil {
		p.Addf("%s must be %s", name, want)
		return
	}
	*v = &x
}

// endpointBody reads a create's or an update's body.
func endpointBody(c *fiber.Ctx, create bool) (domain.EndpointChange, error) {
	m, err := members(c, create)
	if err != nil {
		return domain.EndpointChange{}, err
	}
	var ch domain.EndpointChange
	var types *[]string
	var p fault.Problems
	field(m, "url", "a string", &ch.URL, &p)
	field(m, "eventTypes", "an array of strings", &types, &p)
	field(m, "description", "a string", &ch.Description, &p)
	if !create {
		field(m, "enabled", "a boolean", &ch.Enabled, &p)
	}
	if types != nil {
		ch.EventTypes = *types
		if ch.EventTypes == nil {
			ch.EventTypes = []string{}
		}
	}
	return ch, p.Err(fault.Invalid)
}

// recoverBody reads recover's {since}.
func recoverBody(c *fiber.Ctx) (time.Time, error) {
	m, err := members(c, true)
	if err != nil {
		return time.Time{}, err
	}
	var since *time.Time
	var p fault.Problems
	field(m, "since", "an RFC 3339 date-time", &since, &p)
	if since == nil && len(p) == 0 {
		p.Add("since is required")
	}
	if err := p.Err(fault.Invalid); err != nil {
		return time.Time{}, err
	}
	return since.UTC(), nil
}

// errBodyNotTaken refuses a body sent to an operation that takes none, as the gateway does.
var errBodyNotTaken = httpserver.NewError(http.StatusRequestEntityTooLarge, "this operation takes no body").WithCode(httpserver.CodeBodyTooLarge)

// noBody refuses a body on a route that takes none.
func noBody(c *fiber.Ctx) error {
	if len(c.Body()) > 0 {
		return errBodyNotTaken
	}
	return nil
}

// pageQuery reads limit (1 to 100, 50 by default) and offset (0 or more).
func pageQuery(c *fiber.Ctx) (domain.Page, error) {
	page := domain.Page{Limit: defaultLimit}
	var p fault.Problems
	if s := c.Query("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > maxLimit {
			p.Addf("limit must be an integer from 1 to %d", maxLimit)
		}
		page.Limit = n
	}
	if s := c.Query("offset"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 || n > 1_000_000 {
			p.Add("offset must be an integer from 0 to 1000000")
		}
		page.Offset = n
	}
	return page, p.Err(fault.Invalid)
}

// statusQuery reads a deliveries list's status filter ("" for any).
func statusQuery(c *fiber.Ctx) (string, error) {
	s := c.Query("status")
	switch s {
	case "", domain.DeliveryPending, domain.DeliverySucceeded, domain.DeliveryFailed:
		return s, nil
	}
	return "", fault.NewInvalid(fmt.Sprintf("status must be one of %s, %s, %s", domain.DeliveryPending, domain.DeliverySucceeded, domain.DeliveryFailed))
}

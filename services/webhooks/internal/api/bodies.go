package api

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/apispec"
	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/services/webhooks/internal/domain"
)

// The request checks of the routes: each body against its operation's schema in the OpenAPI
// document (libs/apispec, as the gateway checks it), the queries here, answered in the standard
// error format. The business rules (the URL's, the event types', the limits) are the domain's.

// Operation ids of the bodies, in libs/apispec/openapi.yaml; both mounts check a body alike.
const (
	opCreate  = "organizerCreateWebhookEndpoint"
	opUpdate  = "organizerUpdateWebhookEndpoint"
	opRecover = "organizerRecoverWebhookDeliveries"
)

// Bounds of a page.
const (
	defaultLimit = 50
	maxLimit     = 100
)

// decode checks the body against the operation's request schema and decodes it into v.
func (h handlers) decode(c *fiber.Ctx, operationID string, v any) error {
	err := h.v.ValidateRequest(operationID, c.Body())
	var ve *apispec.ValidationError
	if errors.As(err, &ve) {
		return httpserver.Invalid(ve.Problems)
	}
	if err != nil {
		return err
	}
	return httpserver.DecodeJSON(c, v)
}

// endpointBody is a create's or an update's body; members it does not name are ignored, as the
// document allows.
type endpointBody struct {
	URL         *string   `json:"url"`
	EventTypes  *[]string `json:"eventTypes"`
	Description *string   `json:"description"`
	Enabled     *bool     `json:"enabled"`
}

// endpointChange reads a create's (operation opCreate, which sets no Enabled) or an update's
// body.
func (h handlers) endpointChange(c *fiber.Ctx, operationID string) (domain.EndpointChange, error) {
	var b endpointBody
	if err := h.decode(c, operationID, &b); err != nil {
		return domain.EndpointChange{}, err
	}
	ch := domain.EndpointChange{URL: b.URL, Description: b.Description}
	if operationID != opCreate {
		ch.Enabled = b.Enabled
	}
	if b.EventTypes != nil {
		ch.EventTypes = *b.EventTypes
	}
	return ch, nil
}

// recoverBody reads recover's {since}.
func (h handlers) recoverBody(c *fiber.Ctx) (time.Time, error) {
	var b struct {
		Since time.Time `json:"since"`
	}
	if err := h.decode(c, opRecover, &b); err != nil {
		return time.Time{}, err
	}
	return b.Since.UTC(), nil
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

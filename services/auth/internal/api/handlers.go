package api

import (
	"math"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/apikey"
	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/services/auth/internal/app"
	"github.com/podiumhq/podium/services/auth/internal/domain"
)

// handlers parse requests, call the use cases and write their results. Values taken from the
// Fiber context are cloned, because Fiber reuses its buffers after the handler returns.
type handlers struct {
	svc *app.Service
}

type createOrganizerRequest struct {
	Name  string `json:"name"`
	Owner string `json:"owner"`
}

func (h handlers) createOrganizer(c *fiber.Ctx) error {
	var req createOrganizerRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return err
	}
	o, err := h.svc.CreateOrganizer(c.UserContext(), domain.OperatorActor(c.IP()), req.Name, req.Owner)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(newCreatedOrganizerView(o))
}

func (h handlers) listOrganizers(c *fiber.Ctx) error {
	page, err := pageOf(c)
	if err != nil {
		return err
	}
	list, total, err := h.svc.ListOrganizers(c.UserContext(), page)
	if err != nil {
		return err
	}
	return c.JSON(ListView[OrganizerView]{Data: mapAll(list, newOrganizerView), Total: total, Limit: page.Limit, Offset: page.Offset})
}

func (h handlers) getOrganizer(c *fiber.Ctx) error {
	o, err := h.svc.Organizer(c.UserContext(), param(c, "organizerId"))
	if err != nil {
		return err
	}
	return c.JSON(newOrganizerView(o))
}

type createKeyRequest struct {
	Type           string   `json:"type"`
	Mode           string   `json:"mode"`
	Name           string   `json:"name"`
	Scopes         []string `json:"scopes"`
	AllowedOrigins []string `json:"allowedOrigins"`
	ExpiresAt      string   `json:"expiresAt"`
}

func (h handlers) createKey(c *fiber.Ctx) error {
	var req createKeyRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return err
	}
	k, err := h.svc.CreateKey(c.UserContext(), operator(c), param(c, "organizerId"), domain.KeyRequest(req))
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(newCreatedKeyView(k))
}

func (h handlers) listKeys(c *fiber.Ctx) error {
	page, err := pageOf(c)
	if err != nil {
		return err
	}
	mode := apikey.Mode(c.Query("mode"))
	if mode != "" && mode != apikey.Live && mode != apikey.Test {
		return fault.NewInvalid("mode must be one of live, test")
	}
	list, total, err := h.svc.ListKeys(c.UserContext(), param(c, "organizerId"), mode, page)
	if err != nil {
		return err
	}
	return c.JSON(ListView[KeyView]{Data: mapAll(list, newKeyView), Total: total, Limit: page.Limit, Offset: page.Offset})
}

func (h handlers) revokeKey(c *fiber.Ctx) error {
	k, err := h.svc.RevokeKey(c.UserContext(), operator(c), param(c, "keyId"))
	if err != nil {
		return err
	}
	return c.JSON(newKeyView(k))
}

type verifyKeyRequest struct {
	KeyHash string `json:"keyHash"`
}

func (h handlers) verifyKey(c *fiber.Ctx) error {
	var req verifyKeyRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return err
	}
	if !domain.ValidKeyHash(req.KeyHash) {
		return fault.NewInvalid("keyHash must be the hex SHA-256 of the key: 64 lowercase hexadecimal characters")
	}
	k, err := h.svc.VerifyKey(c.UserContext(), req.KeyHash)
	if err != nil {
		return err
	}
	return c.JSON(newVerifiedKeyView(k))
}

type checkOriginRequest struct {
	Origin string `json:"origin"`
}

type checkOriginResponse struct {
	Allowed bool `json:"allowed"`
}

func (h handlers) checkOrigin(c *fiber.Ctx) error {
	var req checkOriginRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return err
	}
	if req.Origin == "" {
		return fault.NewInvalid("origin is required")
	}
	ok, err := h.svc.OriginAllowed(c.UserContext(), req.Origin)
	if err != nil {
		return err
	}
	return c.JSON(checkOriginResponse{Allowed: ok})
}

// operator is the actor of an admin API request: the operator, at the client's address.
func operator(c *fiber.Ctx) domain.Actor { return domain.OperatorActor(strings.Clone(c.IP())) }

// param returns a copy of the named path parameter.
func param(c *fiber.Ctx, name string) string { return strings.Clone(c.Params(name)) }

// pageOf reads the limit and offset query parameters of a list request.
func pageOf(c *fiber.Ctx) (domain.Page, error) {
	page := domain.Page{Limit: domain.DefaultPageLimit}
	var p fault.Problems
	if s := c.Query("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > domain.MaxPageLimit {
			p.Addf("limit must be an integer from 1 to %d", domain.MaxPageLimit)
		}
		page.Limit = n
	}
	if s := c.Query("offset"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 || n > math.MaxInt32 {
			p.Addf("offset must be an integer from 0 to %d", math.MaxInt32)
		}
		page.Offset = n
	}
	if err := p.Err(fault.Invalid); err != nil {
		return domain.Page{}, err
	}
	return page, nil
}

package api

import (
	"bytes"
	"math"
	"net/http"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/services/catalog/internal/domain"
	"github.com/podiumhq/podium/services/catalog/internal/importfile"
)

// HeaderImportResult tells an importer whether the event was created, updated or unchanged.
const HeaderImportResult = "Catalog-Import-Result"

// adminImport imports an event file: 201 when it created the event, 200 otherwise, with the
// event as stored; 415 for a body that is neither YAML nor JSON.
func (h *handlers) adminImport(c *fiber.Ctx) error {
	format, err := importfile.FormatOf(c.Get(fiber.HeaderContentType))
	if err != nil {
		return httpserver.NewError(http.StatusUnsupportedMediaType, err.Error())
	}
	res, err := h.svc.Import(c.UserContext(), param(c, "organizerId"), param(c, "externalId"), format, bytes.Clone(c.Body()))
	if err != nil {
		return err
	}
	status, result := fiber.StatusOK, "unchanged"
	switch {
	case res.Created:
		status, result = fiber.StatusCreated, "created"
	case res.Changed:
		result = "updated"
	}
	c.Set(HeaderImportResult, result)
	return c.Status(status).JSON(importfile.FileOf(res.Event))
}

func (h *handlers) adminGet(c *fiber.Ctx) error {
	e, err := h.svc.AdminEvent(c.UserContext(), param(c, "organizerId"), param(c, "externalId"))
	if err != nil {
		return err
	}
	return c.JSON(importfile.FileOf(e))
}

func (h *handlers) adminList(c *fiber.Ctx) error {
	limit, offset, err := pageOf(c)
	if err != nil {
		return err
	}
	page, err := h.svc.AdminEvents(c.UserContext(), param(c, "organizerId"), limit, offset)
	if err != nil {
		return err
	}
	return c.JSON(newAdminList(page))
}

func (h *handlers) importSchema(c *fiber.Ctx) error {
	c.Set(fiber.HeaderContentType, "application/schema+json")
	return c.Send(importfile.Schema)
}

// pageOf reads the limit (1-100, default 50) and offset (default 0) query parameters.
func pageOf(c *fiber.Ctx) (int, int64, error) {
	limit, offset := domain.DefaultLimit, int64(0)
	var p fault.Problems
	if s := c.Query("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > domain.MaxLimit {
			p.Addf("limit must be an integer from 1 to %d", domain.MaxLimit)
		}
		limit = n
	}
	if s := c.Query("offset"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 0 || n > math.MaxInt32 {
			p.Addf("offset must be an integer from 0 to %d", math.MaxInt32)
		}
		offset = n
	}
	return limit, offset, p.Err(fault.Invalid)
}

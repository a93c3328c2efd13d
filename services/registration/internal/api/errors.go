package api

import (
	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/httpserver"
)

// listProblems answers a 400 or a 422 with its problems as a list, one per entry by field
// path, even when there is one, as the contract describes them (libs/httpserver answers a
// single problem as a string).
func listProblems(c *fiber.Ctx) error {
	err := c.Next()
	f, ok := fault.Of(err)
	if !ok {
		return err
	}
	switch f.Kind {
	case fault.Invalid:
		return &httpserver.Error{Status: fiber.StatusBadRequest, Message: f.Problems}
	case fault.Unprocessable:
		return &httpserver.Error{Status: fiber.StatusUnprocessableEntity, Message: f.Problems}
	}
	return err
}

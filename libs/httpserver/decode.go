package httpserver

import (
	"encoding/json"

	"github.com/gofiber/fiber/v2"
)

// DecodeJSON decodes the request body into v; an empty body decodes as {}.
func DecodeJSON(c *fiber.Ctx, v any) error {
	body := c.Body()
	if len(body) == 0 {
		return nil
	}
	if err := json.Unmarshal(body, v); err != nil {
		return BadRequest("body must be a valid JSON object of the documented shape")
	}
	return nil
}

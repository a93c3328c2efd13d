package console

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/services/auth/internal/domain"
)

var errNotAllowed = httpserver.Forbidden("not_allowed", "your role in this organization does not allow this change: ask an owner or admin")

// consoleErrors turns the console's own refusals into pages with their status; the others
// are left to httpserver's classification.
func consoleErrors(c *fiber.Ctx) error {
	err := c.Next()
	if errors.Is(err, domain.ErrNotAllowed) {
		return errNotAllowed
	}
	return err
}

type errorData struct {
	Heading, Message, Code, Next, NextLabel string
}

// WriteError answers a failure with an HTML page (httpserver.Options.WriteError).
func WriteError(c *fiber.Ctx, e *httpserver.Error) error {
	for k, v := range e.Headers {
		c.Set(k, v)
	}
	msg, ok := e.Message.(string)
	if list, isList := e.Message.([]string); isList && len(list) > 0 {
		msg, ok = list[0], true
	}
	if !ok {
		msg = http.StatusText(e.Status)
	}
	d := errorData{Heading: http.StatusText(e.Status), Message: msg, Next: "/", NextLabel: "Back to the console"}
	switch e.Status {
	case http.StatusNotFound:
		d.Heading = "Not found"
	case http.StatusUnauthorized, http.StatusGone:
		d.Next, d.NextLabel = "/signin", "Sign in"
	case http.StatusTooManyRequests:
		d.Heading = "Too many requests"
	}
	if e.Status >= http.StatusInternalServerError {
		d.Message = "Something went wrong on our side (request " + httpserver.RequestID(c) + "). Try again in a moment."
	}
	code := e.Code
	if code == "" {
		code = httpserver.DefaultCode(e.Status)
	}
	c.Set("X-Console-Error", code)
	d.Code = code
	return render(c, e.Status, "error", view{Title: d.Heading + " (" + strconv.Itoa(e.Status) + ")", Data: d})
}

package console

import (
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/apikey"
)

// The API and Webhooks tabs have a test mode, asked by ?mode=test on every page, form and
// redirect of theirs: there they show and make test keys and test endpoints, and the API tab
// offers the test-data tools. Without it they are in live mode.

// testQuery is the query that puts a page in test mode.
const testQuery = "mode=test"

// modeOf is the request's mode.
func modeOf(c *fiber.Ctx) apikey.Mode {
	if c.Query("mode") == string(apikey.Test) {
		return apikey.Test
	}
	return apikey.Live
}

// withMode returns path (which may have a query) in the request's mode.
func withMode(c *fiber.Ctx, path string) string {
	if modeOf(c) != apikey.Test {
		return path
	}
	if strings.Contains(path, "?") {
		return path + "&" + testQuery
	}
	return path + "?" + testQuery
}

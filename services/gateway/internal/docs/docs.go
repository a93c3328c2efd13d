// Package docs serves the API reference: a page that renders the OpenAPI document with the
// vendored Redoc bundle (REDOC_VERSION; vendor.sh re-vendors it), nothing fetched from elsewhere.
package docs

//go:generate ./vendor.sh

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"html/template"
	"io"
	"strings"
	texttemplate "text/template"

	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/httpserver"
)

var (
	//go:embed REDOC_VERSION
	redocVersion string
	//go:embed redoc.standalone.js
	redocBundle []byte
	//go:embed page.html
	pageSource string
	//go:embed reference.js
	scriptSource string

	pageTemplate   = template.Must(template.New("page").Parse(pageSource))
	scriptTemplate = texttemplate.Must(texttemplate.New("script").Parse(scriptSource))
)

// RedocVersion is the release of Redoc the page runs.
func RedocVersion() string { return strings.TrimSpace(redocVersion) }

// PageCSP lets the page run only what it serves itself. Redoc sets styles inline (style
// attributes and <style> elements it writes), draws icons as data: images, fetches the document
// and runs its search index in a worker made from a blob: URL. Its attribution logo, from
// Redocly's CDN, is refused, and Redoc then leaves it out.
const PageCSP = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
	"img-src 'self' data:; font-src 'self' data:; connect-src 'self'; worker-src blob:; " +
	"base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// Route is one path the reference answers and its handler.
type Route struct {
	Path    string
	Handler fiber.Handler
}

// Routes are the page at base, the script that starts Redoc and the bundle, under a path naming
// its release so that it is cached for good; documentURL is where the page reads the OpenAPI
// document.
func Routes(base, documentURL string) ([]Route, error) {
	bundle := base + "/redoc-" + RedocVersion() + ".standalone.js"
	script := base + "/reference.js"
	page, err := execute(pageTemplate, map[string]string{"Document": documentURL, "Script": script})
	if err != nil {
		return nil, err
	}
	start, err := execute(scriptTemplate, map[string]string{"Bundle": bundle})
	if err != nil {
		return nil, err
	}
	const javaScript = "text/javascript; charset=utf-8"
	return []Route{
		{base, serve(page, fiber.MIMETextHTMLCharsetUTF8, "public, max-age=300", PageCSP)},
		{script, serve(start, javaScript, "public, max-age=300", "")},
		{bundle, serve(redocBundle, javaScript, "public, max-age=31536000, immutable", "")},
	}, nil
}

// executor is what html/template and text/template templates share.
type executor interface {
	Execute(w io.Writer, data any) error
}

func execute(t executor, data any) ([]byte, error) {
	var b bytes.Buffer
	err := t.Execute(&b, data)
	return b.Bytes(), err
}

// serve answers body with its type, caching and, for a page, its policy; an If-None-Match
// naming its ETag is answered 304.
func serve(body []byte, contentType, cacheControl, csp string) fiber.Handler {
	sum := sha256.Sum256(body)
	etag := `"` + hex.EncodeToString(sum[:16]) + `"`
	return func(c *fiber.Ctx) error {
		c.Set(fiber.HeaderCacheControl, cacheControl)
		c.Set(fiber.HeaderETag, etag)
		c.Set(fiber.HeaderXContentTypeOptions, "nosniff")
		c.Set(fiber.HeaderReferrerPolicy, "no-referrer")
		if csp != "" {
			c.Set(fiber.HeaderContentSecurityPolicy, csp)
		}
		if httpserver.ETagMatches(c.Get(fiber.HeaderIfNoneMatch), etag) {
			return c.SendStatus(fiber.StatusNotModified)
		}
		c.Set(fiber.HeaderContentType, contentType)
		return c.Send(body)
	}
}

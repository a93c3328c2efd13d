package console

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"io/fs"
	"slices"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/services/auth/internal/domain"
)

//go:embed templates/*.html
var templateFiles embed.FS

//go:embed static
var staticFiles embed.FS

// pages holds each page parsed with the layout, by file name without extension.
var pages = parsePages()

var funcs = template.FuncMap{
	"when": func(t any) string {
		switch v := t.(type) {
		case time.Time:
			return v.UTC().Format("2006-01-02 15:04 UTC")
		case *time.Time:
			if v == nil {
				return ""
			}
			return v.UTC().Format("2006-01-02 15:04 UTC")
		}
		return ""
	},
	"day": func(t *time.Time) string {
		if t == nil {
			return ""
		}
		return t.UTC().Format("2006-01-02")
	},
	"localOrigin": func(origin string) bool { return strings.HasPrefix(origin, "http://") },
	"disabledWhy": disabledWhy,
	"has":         slices.Contains[[]string, string],
}

// disabledWhy says why a disabled endpoint gets no deliveries.
func disabledWhy(e domain.WebhookEndpoint) string {
	at := ""
	if e.DisabledAt != nil {
		at = e.DisabledAt.UTC().Format("2006-01-02 15:04 UTC")
	}
	switch e.DisabledReason {
	case domain.WebhookGone:
		return "answered 410 Gone (" + at + ")"
	case domain.WebhookFailing:
		if e.FailingSince != nil {
			return fmt.Sprintf("failing for %d days since %s", domain.WebhookFailingDays, e.FailingSince.UTC().Format("2006-01-02 15:04 UTC"))
		}
		return fmt.Sprintf("failing for %d days (disabled %s)", domain.WebhookFailingDays, at)
	case domain.WebhookDisabledByOrganizer:
		return "disabled by your organization (" + at + ")"
	}
	return "disabled (" + at + ")"
}

func parsePages() map[string]*template.Template {
	names, err := fs.Glob(templateFiles, "templates/*.html")
	if err != nil {
		panic(err)
	}
	out := map[string]*template.Template{}
	for _, name := range names {
		base := strings.TrimSuffix(strings.TrimPrefix(name, "templates/"), ".html")
		if base == "layout" {
			continue
		}
		out[base] = template.Must(template.New("layout.html").Funcs(funcs).ParseFS(templateFiles, "templates/layout.html", name))
	}
	return out
}

// view is what every page receives: the page's own data and the layout's.
type view struct {
	Title string
	// CSRF is the token every form of the page carries.
	CSRF string
	// Email is the signed-in person's, empty before sign-in.
	Email string
	// Org is the organization the page is about, with the person's role there, if any.
	Org  *orgView
	Data any
}

// orgView is the organization of a page and what the signed-in member may do in it.
type orgView struct {
	ID, Name, Role string
	CanManage      bool
	// Tab is the page's tab: api, webhooks, members or audit.
	Tab string
	// Test is the test mode of the API and Webhooks tabs.
	Test bool
}

// HasModes reports whether the page's tab has a live and a test mode.
func (o orgView) HasModes() bool { return o.Tab == "api" || o.Tab == "webhooks" }

// Q is the query that keeps the page's mode on a link or form without a query of its own.
func (o orgView) Q() string {
	if o.Test {
		return "?" + testQuery
	}
	return ""
}

// AndQ keeps the mode on a link that has a query.
func (o orgView) AndQ() string {
	if o.Test {
		return "&" + testQuery
	}
	return ""
}

// render writes page with status; the page is rendered fully before anything is sent, so a
// template failure is a clean 500.
func render(c *fiber.Ctx, status int, page string, v view) error {
	t, ok := pages[page]
	if !ok {
		return fmt.Errorf("console: no page %q", page)
	}
	var buf bytes.Buffer
	if err := t.Execute(&buf, v); err != nil {
		return fmt.Errorf("console: render %s: %w", page, err)
	}
	c.Set(fiber.HeaderContentType, fiber.MIMETextHTMLCharsetUTF8)
	return c.Status(status).Send(buf.Bytes())
}

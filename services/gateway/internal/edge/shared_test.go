package edge

import (
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"

	"github.com/podiumhq/podium/libs/apikey"
	"github.com/podiumhq/podium/libs/apispec"
	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/gateway/internal/edgecache"
)

// TestOnlyPlainSmallReadsUseTheEdge: a shareable operation's request is looked up and kept
// unless it has a query string (a preview token), a body on a GET or a body over
// maxSharedBody; other operations never are; a kept answer is served to its organizer only.
func TestOnlyPlainSmallReadsUseTheEdge(t *testing.T) {
	g := &Gateway{Edge: edgecache.New(100, 1<<20, time.Minute, time.Now)}
	srv := httpserver.New(httpserver.Options{Log: testkit.Discard(), BodyLimit: 1 << 20, DisableTracing: true})
	route := func(method, path, opID string) {
		srv.App.Add(method, path, func(c *fiber.Ctx) error {
			key, keep, kept := g.lookupEdge(c, apispec.Operation{ID: opID}, c.Get("X-Org"), apikey.Live)
			if kept != nil {
				return serveKept(c, kept)
			}
			if !keep {
				return c.SendString("not kept")
			}
			// The owner's answer, shareable for a minute.
			c.Response().Header.Set(edgecache.HeaderSurrogateControl, "max-age=60")
			c.Status(200).Response().SetBodyString("from the owner")
			g.keepAtEdge(c, key)
			return nil
		})
	}
	route("POST", "/search", "browserSearchEvents")
	route("GET", "/detail", "browserGetEvent")
	route("POST", "/session", "browserCheckoutSession")
	do := func(method, target, org, body string) (int, string, string) {
		req := httptest.NewRequest(method, target, strings.NewReader(body))
		req.Header.Set("X-Org", org)
		res, err := srv.App.Test(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		raw, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(raw), res.Header.Get(headerXCache)
	}
	for _, tc := range []struct {
		method, target, body string
		keep                 bool
	}{
		{"POST", "/search", `{"limit":5}`, true},
		{"POST", "/search", `{"limit":5,"search":"` + strings.Repeat("a", maxSharedBody) + `"}`, false},
		{"GET", "/detail", "", true},
		{"GET", "/detail?previewToken=prv_x", "", false},
		{"GET", "/detail", "padding", false},
		{"POST", "/session", `{}`, false},
	} {
		want := map[bool]string{true: "from the owner", false: "not kept"}[tc.keep]
		if _, body, _ := do(tc.method, tc.target, "org_1", tc.body); body != want {
			t.Fatalf("%s %s: %q, want %q", tc.method, tc.target, body, want)
		}
	}
	if status, body, xcache := do("GET", "/detail", "org_1", ""); status != 200 || body != "from the owner" || xcache != "HIT" {
		t.Fatalf("second read: %d %q X-Cache %q, want the kept answer", status, body, xcache)
	}
	if _, _, xcache := do("GET", "/detail", "org_2", ""); xcache != "MISS" {
		t.Fatalf("another organizer's read: X-Cache %q, want MISS (its own answer)", xcache)
	}
}

func TestCompressedBodiesAreRefused(t *testing.T) {
	srv := httpserver.New(httpserver.Options{Log: testkit.Discard(), BodyLimit: 1 << 20, DisableTracing: true})
	srv.App.Use(refuseEncodedBodies)
	srv.App.Post("/", func(c *fiber.Ctx) error { return c.SendStatus(204) })
	for _, tc := range []struct {
		encoding string
		status   int
	}{{"", 204}, {"identity", 204}, {"gzip", 415}, {"br", 415}} {
		req := httptest.NewRequest("POST", "/", strings.NewReader("{}"))
		if tc.encoding != "" {
			req.Header.Set(fasthttp.HeaderContentEncoding, tc.encoding)
		}
		res, err := srv.App.Test(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != tc.status {
			t.Fatalf("Content-Encoding %q: %d, want %d", tc.encoding, res.StatusCode, tc.status)
		}
	}
}

package edge

import (
	"bytes"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/podiumhq/podium/libs/apispec"
	"github.com/podiumhq/podium/services/gateway/internal/docs"
	"github.com/podiumhq/podium/services/gateway/internal/ratelimit"
)

// TestReferenceIsServedWithoutKey: the page, the script it runs and the Redoc bundle that script
// imports are answered without a key, with their types, caching (ETag and 304; the bundle
// immutable under its release's path) and, for the page, a policy that runs only what the
// gateway serves.
func TestReferenceIsServedWithoutKey(t *testing.T) {
	h := newHarness(t, Limits{})
	addr := newAddr()
	get := func(path string) answer {
		res := h.do(t, call{method: "GET", path: strings.TrimPrefix(path, BasePath), addr: addr})
		wantStatus(t, res, http.StatusOK, "")
		if regexp.MustCompile(`(?i)https?://`).Match(res.body) && path != bundlePath {
			t.Fatalf("%s names another site:\n%s", path, res.body)
		}
		return res
	}
	page := get(BasePath + "/docs")
	wantHeaders(t, "page", page.header, map[string]string{
		"Content-Type":            "text/html; charset=utf-8",
		"Cache-Control":           "public, max-age=300",
		"Content-Security-Policy": docs.PageCSP,
		"X-Content-Type-Options":  "nosniff",
	})
	if want := `data-document="` + BasePath + `/openapi.json"`; !strings.Contains(string(page.body), want) {
		t.Fatalf("page lacks %s:\n%s", want, page.body)
	}
	scriptPath := string(regexp.MustCompile(`<script type="module" src="([^"]+)">`).FindSubmatch(page.body)[1])
	script := get(scriptPath)
	wantHeaders(t, "script", script.header, map[string]string{
		"Content-Type":  "text/javascript; charset=utf-8",
		"Cache-Control": "public, max-age=300",
	})
	if imported := string(regexp.MustCompile(`import \{ init \} from "([^"]+)"`).FindSubmatch(script.body)[1]); imported != bundlePath {
		t.Fatalf("script imports %s, want %s", imported, bundlePath)
	}
	bundle := get(bundlePath)
	wantHeaders(t, "bundle", bundle.header, map[string]string{
		"Content-Type":           "text/javascript; charset=utf-8",
		"Cache-Control":          "public, max-age=31536000, immutable",
		"X-Content-Type-Options": "nosniff",
	})
	if !strings.Contains(string(bundle.body[:300]), "Version: "+docs.RedocVersion()) {
		t.Fatalf("bundle is not Redoc %s: %.300s", docs.RedocVersion(), bundle.body)
	}
	for path, res := range map[string]answer{BasePath + "/docs": page, scriptPath: script, bundlePath: bundle} {
		etag := res.header.Get("ETag")
		cached := h.do(t, call{method: "GET", path: strings.TrimPrefix(path, BasePath), addr: addr, headers: map[string]string{"If-None-Match": etag}})
		if etag == "" || cached.status != http.StatusNotModified || len(cached.body) != 0 {
			t.Fatalf("%s with If-None-Match %q: %d, %d bytes; want 304 without a body", path, etag, cached.status, len(cached.body))
		}
	}
}

// TestDocumentsAreServedWithoutKey: the OpenAPI document and its 3.0 rendition are answered
// without a key, as JSON readable from any page, cacheable, with an ETag honoured by 304.
func TestDocumentsAreServedWithoutKey(t *testing.T) {
	h := newHarness(t, Limits{})
	addr := newAddr()
	for path, want := range map[string][]byte{"/openapi.json": apispec.Document(), "/openapi-3.0.json": apispec.Document30()} {
		res := h.do(t, call{method: "GET", path: path, addr: addr})
		wantStatus(t, res, http.StatusOK, "")
		wantHeaders(t, path, res.header, map[string]string{
			"Content-Type":                "application/json",
			"Cache-Control":               "public, max-age=300",
			"Access-Control-Allow-Origin": "*",
		})
		if !bytes.Equal(res.body, want) {
			t.Fatalf("%s: %.200s", path, res.body)
		}
		etag := res.header.Get("ETag")
		cached := h.do(t, call{method: "GET", path: path, addr: addr, headers: map[string]string{"If-None-Match": etag}})
		if etag == "" || cached.status != http.StatusNotModified || len(cached.body) != 0 {
			t.Fatalf("%s with If-None-Match %q: %d, %d bytes; want 304 without a body", path, etag, cached.status, len(cached.body))
		}
	}
}

// bundlePath is where the gateway serves the Redoc bundle.
var bundlePath = BasePath + "/docs/redoc-" + docs.RedocVersion() + ".standalone.js"

// TestReferenceSharesThePublicLimit: the page and its bundle draw from the client address's
// bucket of the routes without a key, the OpenAPI documents'.
func TestReferenceSharesThePublicLimit(t *testing.T) {
	limit, _ := ratelimit.ParseLimit("4/m")
	h := newHarness(t, Limits{PublicPerIP: limit})
	addr := newAddr()
	for _, path := range []string{"/docs", "/openapi.json", "/openapi-3.0.json", strings.TrimPrefix(bundlePath, BasePath)} {
		wantStatus(t, h.do(t, call{method: "GET", path: path, addr: addr}), http.StatusOK, "")
	}
	refused := h.do(t, call{method: "GET", path: "/docs", addr: addr})
	wantStatus(t, refused, http.StatusTooManyRequests, "rate limit exceeded")
	if refused.header.Get("Retry-After") == "" {
		t.Fatalf("429 without Retry-After: %v", refused.header)
	}
	wantStatus(t, h.do(t, call{method: "GET", path: "/docs", addr: newAddr()}), http.StatusOK, "")
}

func wantHeaders(t *testing.T, name string, got http.Header, want map[string]string) {
	t.Helper()
	for k, v := range want {
		if got.Get(k) != v {
			t.Errorf("%s: %s = %q, want %q", name, k, got.Get(k), v)
		}
	}
}

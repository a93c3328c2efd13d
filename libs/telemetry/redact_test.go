package telemetry_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"

	"github.com/podiumhq/podium/libs/telemetry"
)

// TestClientSpansKeepAQuerysNamesNotItsValues: otelhttp records the whole URL of every call
// (url.full); a query may carry a token, which the exported span must not.
func TestClientSpansKeepAQuerysNamesNotItsValues(t *testing.T) {
	exp := &collector{}
	tel, err := telemetry.Setup(t.Context(), telemetry.Options{Service: "test", SampleRatio: 1, Exporter: exp})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "ok") }))
	defer srv.Close()
	client := &http.Client{Transport: otelhttp.NewTransport(http.DefaultTransport)}
	const token = "pv_Zt5qK2mW9xR4vB7nL1cP8sD3"
	for _, path := range []string{"/events/evt_1?previewToken=" + token + "&limit=5", "/events/evt_2"} {
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, srv.URL+path, nil)
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
	}
	if err := tel.Shutdown(t.Context()); err != nil {
		t.Fatal(err)
	}

	var urls []string
	for _, s := range exp.spans {
		for _, a := range s.Attributes() {
			if strings.Contains(a.Value.String(), token) {
				t.Errorf("span %q carries the token in %s", s.Name(), a.Key)
			}
			if a.Key == "url.full" {
				urls = append(urls, a.Value.AsString())
			}
		}
	}
	want := []string{srv.URL + "/events/evt_1?limit=REDACTED&previewToken=REDACTED", srv.URL + "/events/evt_2"}
	if strings.Join(urls, " ") != strings.Join(want, " ") {
		t.Fatalf("url.full of the client spans: %q, want %q", urls, want)
	}
}

package testkit

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"testing"
	"time"
)

// SetEnv sets vars for the test and unsets HTTP_ADDR unless vars names it, so a service's
// configuration sees exactly this environment's listen address; all is restored after the test.
func SetEnv(t testing.TB, vars map[string]string) {
	t.Helper()
	t.Setenv("HTTP_ADDR", "")
	if err := os.Unsetenv("HTTP_ADDR"); err != nil {
		t.Fatal(err)
	}
	for k, v := range vars {
		t.Setenv(k, v)
	}
}

// FreeAddr returns a 127.0.0.1 address with a port nothing listens on.
func FreeAddr(t testing.TB) string {
	t.Helper()
	ln, err := (&net.ListenConfig{}).Listen(t.Context(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// statusClient bounds each check of WaitStatus, so a hung endpoint is checked again.
var statusClient = &http.Client{Timeout: 2 * time.Second}

// WaitStatus waits up to 20 s until GET url answers status and returns the answer's JSON
// object body (nil for another body).
func WaitStatus(t testing.TB, url string, status int) map[string]any {
	t.Helper()
	var body map[string]any
	Eventually(t, 20*time.Second, func() string {
		req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, url, nil)
		if err != nil {
			t.Fatal(err)
		}
		res, err := statusClient.Do(req)
		if err != nil {
			return fmt.Sprintf("GET %s: %v", url, err)
		}
		defer res.Body.Close()
		if res.StatusCode != status {
			return fmt.Sprintf("GET %s answered %d, want %d", url, res.StatusCode, status)
		}
		body = nil
		_ = json.NewDecoder(res.Body).Decode(&body)
		return ""
	})
	return body
}

// Command healthcheck probes a service's HTTP health endpoint from inside its container, where
// the distroless image has no shell, curl or wget. It probes loopback addresses only and exits 0
// on a 2xx answer, 1 otherwise.
//
//	healthcheck [url]    (default http://127.0.0.1:8080/readyz)
package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"time"
)

const (
	defaultURL = "http://127.0.0.1:8080/readyz"
	timeout    = 2 * time.Second
)

func main() {
	target := defaultURL
	if len(os.Args) > 1 {
		target = os.Args[1]
	}
	if err := probe(context.Background(), target); err != nil {
		fmt.Fprintln(os.Stderr, "healthcheck:", err)
		os.Exit(1)
	}
}

// probe GETs rawURL, which must be on the loopback interface (a healthcheck probes its own
// container), and reports an error unless the answer is 2xx within the timeout.
func probe(ctx context.Context, rawURL string) error {
	u, err := url.Parse(rawURL)
	if err != nil {
		return err
	}
	if ip := net.ParseIP(u.Hostname()); u.Hostname() != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("%s: only loopback addresses are probed", rawURL)
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	// gosec G704 (SSRF): the URL is the container's own loopback address, checked above.
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil) //nolint:gosec
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req) //nolint:gosec
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return fmt.Errorf("%s: %s", rawURL, resp.Status)
	}
	return nil
}

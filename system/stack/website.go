package stack

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"time"
)

// WebsiteConfig is what the demo organizer website (examples/website) is told at /config.js:
// where the gateway is and the publishable key it calls the browser API with.
type WebsiteConfig struct {
	GatewayURL     string `json:"gatewayUrl"`
	PublishableKey string `json:"publishableKey"`
}

// Website serves the demo organizer website.
type Website struct {
	// URL is the site's origin (addr's host and the port it listens on), the one its
	// publishable key must allow.
	URL string
	srv *http.Server
}

// ServeWebsite serves the files of dir (examples/website) on addr ("localhost:5173",
// "127.0.0.1:0") and cfg as the module /config.js, so that nothing environment-specific is in
// the site's files.
func ServeWebsite(addr, dir string, cfg WebsiteConfig) (*Website, error) {
	config, err := json.Marshal(cfg)
	if err != nil {
		return nil, err
	}
	ln, err := (&net.ListenConfig{}).Listen(context.Background(), "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("stack: website: %w", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /config.js", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		fmt.Fprintf(w, "export const config = %s;\n", config)
	})
	mux.Handle("/", noStore(http.FileServer(http.Dir(dir))))
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		_ = ln.Close()
		return nil, fmt.Errorf("stack: website: %w", err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	w := &Website{URL: "http://" + net.JoinHostPort(host, strconv.Itoa(port)), srv: &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: mux}}
	go func() { _ = w.srv.Serve(ln) }()
	return w, nil
}

// Close stops serving.
func (w *Website) Close() error {
	if err := w.srv.Close(); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// noStore keeps browsers from caching the site's files, which change as it is worked on.
func noStore(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		h.ServeHTTP(w, r)
	})
}

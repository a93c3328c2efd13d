package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
)

func TestProbe(t *testing.T) {
	var status atomic.Int32
	status.Store(http.StatusOK)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(int(status.Load()))
	}))
	defer srv.Close()

	if err := probe(context.Background(), srv.URL+"/readyz"); err != nil {
		t.Fatalf("200: %v", err)
	}
	status.Store(http.StatusServiceUnavailable)
	if err := probe(context.Background(), srv.URL+"/readyz"); err == nil {
		t.Fatal("503 must fail the probe")
	}
	if err := probe(context.Background(), "http://example.com/readyz"); err == nil {
		t.Fatal("a non-loopback host must be refused")
	}
	srv.Close()
	if err := probe(context.Background(), srv.URL+"/readyz"); err == nil {
		t.Fatal("a closed port must fail the probe")
	}
}

package testkit_test

import (
	"net/http"
	"net/http/httptest"
	"os"
	"sync/atomic"
	"testing"

	"github.com/podiumhq/podium/libs/testkit"
)

func TestSetEnvLeavesHTTPAddrUnset(t *testing.T) {
	t.Setenv("HTTP_ADDR", ":9999")
	testkit.SetEnv(t, map[string]string{"PODIUM_TEST_VAR": "x"})
	if _, set := os.LookupEnv("HTTP_ADDR"); set || os.Getenv("PODIUM_TEST_VAR") != "x" {
		t.Fatalf("HTTP_ADDR set %v, PODIUM_TEST_VAR %q", set, os.Getenv("PODIUM_TEST_VAR"))
	}
}

func TestWaitStatusWaitsForTheStatus(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		if calls.Add(1) < 3 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		_, _ = w.Write([]byte(`{"status":"ready"}`))
	}))
	defer srv.Close()
	if body := testkit.WaitStatus(t, srv.URL, http.StatusOK); body["status"] != "ready" || calls.Load() != 3 {
		t.Fatalf("body %v after %d calls", body, calls.Load())
	}
	if addr := testkit.FreeAddr(t); addr == "" {
		t.Fatal("no free address")
	}
}

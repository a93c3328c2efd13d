// Package servicetest runs a service's binary in process for the tests of its cmd package, with
// the configuration the test puts in the environment.
package servicetest

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/podiumhq/podium/libs/service"
	"github.com/podiumhq/podium/libs/testkit"
)

// Migrate runs p's migrate command twice: the second run finds nothing to apply.
func Migrate(t *testing.T, p service.Program) {
	t.Helper()
	for range 2 {
		if err := p.Run(t.Context(), []string{"migrate"}, &bytes.Buffer{}); err != nil {
			t.Fatalf("migrate: %v", err)
		}
	}
}

// Serve runs p's serve command until the test ends, which must find it stopped without error,
// and returns once http://addr/readyz answers 200.
func Serve(t *testing.T, p service.Program, addr string) {
	t.Helper()
	Start(t, p)
	testkit.WaitStatus(t, "http://"+addr+"/readyz", http.StatusOK)
}

// Start runs p's serve command until the test ends, which must find it stopped without error.
func Start(t *testing.T, p service.Program) {
	t.Helper()
	testkit.Background(t, func(ctx context.Context) error { return p.Run(ctx, nil, &bytes.Buffer{}) })
}

// WaitOutboxEmpty waits until the relay has published every message of the outbox in the
// database at url.
func WaitOutboxEmpty(t *testing.T, url string) {
	t.Helper()
	conn, err := pgx.Connect(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.WithoutCancel(t.Context()))
	testkit.Eventually(t, 20*time.Second, func() string {
		var n int
		if err := conn.QueryRow(t.Context(), `SELECT count(*) FROM outbox`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			return fmt.Sprintf("the relay left %d messages in the outbox", n)
		}
		return ""
	})
}

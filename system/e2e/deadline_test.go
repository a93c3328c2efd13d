package e2e

import (
	"net/http"
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestStalledTableAnswers503ThroughTheGateway stalls registration's tickets table (another
// connection holds it in ACCESS EXCLUSIVE mode, as a stuck migration or a runaway transaction
// would): an organizer's search through the gateway answers 503 with Retry-After at
// registration's lock timeout instead of pinning a connection until the gateway gives up, the
// catalog keeps answering meanwhile, and the search works again once the lock goes.
func TestStalledTableAnswers503ThroughTheGateway(t *testing.T) {
	ctx := t.Context()
	search := req{"POST", gw("/organizer/registrations/search"), secret(demo.SecretAll.Key), "{}"}
	if res := do(t, search); res.status != http.StatusCreated {
		t.Fatalf("search before the stall: %d %s", res.status, res.body)
	}
	holder, err := pgx.Connect(ctx, sys.DatabaseURL("registration"))
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close(ctx)
	tx, err := holder.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx) //nolint:errcheck // released below; a second rollback is a no-op
	if _, err := tx.Exec(ctx, "LOCK TABLE tickets IN ACCESS EXCLUSIVE MODE"); err != nil {
		t.Fatal(err)
	}

	res := do(t, search)
	wantError(t, res, http.StatusServiceUnavailable, "did not complete in time")
	wantCode(t, res, http.StatusServiceUnavailable, "timeout")
	if res.header.Get("Retry-After") == "" {
		t.Fatal("the 503 carries no Retry-After")
	}
	events := req{"POST", gw("/organizer/events/search"), secret(demo.SecretAll.Key), "{}"}
	if res := do(t, events); res.status != http.StatusCreated {
		t.Fatalf("the catalog during registration's stall: %d %s", res.status, res.body)
	}

	if err := tx.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	if res := do(t, search); res.status != http.StatusCreated {
		t.Fatalf("search once the lock is gone: %d %s", res.status, res.body)
	}
}

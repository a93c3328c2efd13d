package main

import (
	"encoding/json"
	"maps"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/libs/service/servicetest"
	"github.com/podiumhq/podium/libs/testkit"
)

// TestStalledTableAnswers503AndRecovers serves the binary with its database settings from the
// environment, stalls the tickets table (another connection holds it in ACCESS EXCLUSIVE mode)
// and searches: the search gives up at the pool's lock timeout and answers 503 in the standard
// format with Retry-After instead of holding its connection until the caller gives up; once
// the lock goes, the same search succeeds.
func TestStalledTableAnswers503AndRecovers(t *testing.T) {
	search, dbURL := serveForSearch(t, map[string]string{"DB_LOCK_TIMEOUT": "300ms"})
	if status, _, _ := search(); status != http.StatusCreated {
		t.Fatalf("search before the stall: %d", status)
	}

	holder, err := pgx.Connect(t.Context(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close(t.Context())
	tx, err := holder.Begin(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(t.Context(), "LOCK TABLE tickets IN ACCESS EXCLUSIVE MODE"); err != nil {
		t.Fatal(err)
	}
	status, h, b := search()
	if status != http.StatusServiceUnavailable || h.Get("Retry-After") != httpserver.RetryAfterTimeout ||
		b.StatusCode != http.StatusServiceUnavailable || b.Error != "Service Unavailable" || b.RequestID == "" || b.RequestID != h.Get("X-Request-Id") {
		t.Fatalf("search of a stalled table: %d Retry-After %q %+v", status, h.Get("Retry-After"), b)
	}

	if err := tx.Rollback(t.Context()); err != nil {
		t.Fatal(err)
	}
	if status, _, b := search(); status != http.StatusCreated {
		t.Fatalf("search once the lock is gone: %d %+v", status, b)
	}
}

// searchFunc searches an organizer's registrations and returns the answer.
type searchFunc func() (int, http.Header, httpserver.Body)

// serveForSearch migrates a fresh database twice (the second run finds nothing to apply) and
// serves the binary on it, with the settings extra, until the test ends, which must find it
// stopped without error; it returns a search of the service and the database URL.
func serveForSearch(t *testing.T, extra map[string]string) (searchFunc, string) {
	t.Helper()
	vars, issuers := validEnv(t)
	addr := testkit.FreeAddr(t)
	dbURL := testkit.DatabaseURL(t)
	vars["DATABASE_URL"], vars["KAFKA_BROKERS"] = dbURL, strings.Join(testkit.Kafka(t), ",")
	maps.Copy(vars, extra)
	testkit.SetEnv(t, vars)
	t.Setenv("HTTP_ADDR", addr)
	servicetest.Migrate(t, program)
	servicetest.Serve(t, program, addr)

	tok := issuers.Token(t, identity.Gateway, identity.Registration,
		identity.Principal{OrganizerID: "org_1", KeyID: "k", KeyType: identity.Secret, Scopes: []string{"registrations:read"}})
	return func() (int, http.Header, httpserver.Body) {
		t.Helper()
		// The client's timeout is a safety net: the assertion is on the answer, not its time.
		client := &http.Client{Timeout: 30 * time.Second}
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, "http://"+addr+"/external/v1/organizer/registrations/search", strings.NewReader(`{}`))
		req.Header.Set(identity.Header, tok)
		req.Header.Set("Content-Type", "application/json")
		resp, err := client.Do(req)
		if err != nil {
			t.Fatalf("search: %v", err)
		}
		defer resp.Body.Close()
		var b httpserver.Body
		_ = json.NewDecoder(resp.Body).Decode(&b)
		return resp.StatusCode, resp.Header, b
	}, dbURL
}

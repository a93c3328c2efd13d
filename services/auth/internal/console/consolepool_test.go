package console_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/podiumhq/podium/libs/apikey"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/auth/internal/authtest"
	"github.com/podiumhq/podium/services/auth/internal/domain"
)

// TestConsoleVisitorsNeverTakeKeyVerificationsConnections: while the console's sessions and
// links are locked (as a stalled statement would hold them), strangers flood the console with
// junk 43-character session cookies and junk link tokens, three times as many requests as the
// API's pool has connections, each from a network of its own. Only the console pool's 2
// connections wait on the lock; every other request of the flood is answered 503 at once, and
// key verification is answered all along. Once the lock is free the 2 are answered as usual.
func TestConsoleVisitorsNeverTakeKeyVerificationsConnections(t *testing.T) {
	const conns, each = 2, 12
	env := authtest.Start(t, authtest.Options{ConsoleConns: conns})
	acme := newOrg(t, env, "Acme Races", "acme.test")
	keyHash := apikey.Hash(env.Key(t, acme.id, map[string]any{"type": "secret", "name": "backend", "scopes": []string{"events:read"}})["key"].(string))
	if n := env.Pool.Config().MaxConns; 2*each <= int(n) {
		t.Fatalf("the flood (%d requests) must outnumber the API pool's %d connections", 2*each, n)
	}

	release := lockTables(t, env, "console_sessions", "signin_links")
	answers := make(chan floodAnswer, 2*each)
	for i := range 2 * each {
		b := newBrowser(t, env)
		b.address = fmt.Sprintf("192.0.2.%d", i+1)
		path := "/signin/" + domain.NewToken()
		if i%2 == 0 {
			b.cookies["__Host-podium-session"] = domain.NewToken()
			path = "/orgs/" + acme.id + "/api"
		}
		go func() { answers <- b.fetch(http.MethodGet, path, nil) }()
	}
	busy := 0
	testkit.Eventually(t, 20*time.Second, func() string {
		for len(answers) > 0 {
			a := <-answers
			if a.status != http.StatusServiceUnavailable || a.code != "service_unavailable" || a.retryAfter == "" {
				return fmt.Sprintf("a request was answered %+v while the tables are locked: it cannot have reached the database", a)
			}
			busy++
		}
		if waiting := waiters(t, env, "relation"); busy != 2*each-conns || waiting != conns {
			return fmt.Sprintf("%d requests answered busy, %d waiting for the tables; want %d and %d", busy, waiting, 2*each-conns, conns)
		}
		return ""
	})
	for range 3 {
		if r := verifyKey(t, env, keyHash); r != http.StatusOK {
			t.Fatalf("key verification during the flood: %d", r)
		}
	}

	release()
	for range conns {
		a := <-answers
		signedOut := a.status == http.StatusSeeOther
		invalidLink := a.status == http.StatusGone && a.code == "signin_link_invalid"
		if a.err != nil || !signedOut && !invalidLink {
			t.Fatalf("a request of the flood that held a place, once the tables were free: %+v", a)
		}
	}
}

// lockTables locks tables in a transaction of the test's own, outside the service's pools, so
// that any statement reading them waits, and returns what releases them (done at the test's
// end at the latest).
func lockTables(t *testing.T, env *authtest.Env, tables ...string) func() {
	t.Helper()
	conn, err := pgx.Connect(t.Context(), env.Pool.Config().ConnString())
	if err != nil {
		t.Fatal(err)
	}
	tx, err := conn.Begin(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for _, table := range tables {
		if _, err := tx.Exec(t.Context(), "LOCK TABLE "+pgx.Identifier{table}.Sanitize()+" IN ACCESS EXCLUSIVE MODE"); err != nil {
			t.Fatal(err)
		}
	}
	released := false
	release := func() {
		if !released {
			released = true
			_ = tx.Rollback(context.Background())
			_ = conn.Close(context.Background())
		}
	}
	t.Cleanup(release)
	return release
}

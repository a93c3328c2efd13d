package postgres_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/podiumhq/podium/libs/postgres"
	"github.com/podiumhq/podium/libs/testkit"
)

// sqlStater is how libs/httpserver recognises a database timeout without importing pgx.
type sqlStater interface{ SQLState() string }

// safetyNet bounds a test that would otherwise hang on the very stall it checks; the
// assertions are on the error Postgres returns, never on the time taken.
const safetyNet = 30 * time.Second

func timedPool(t *testing.T, url string, o postgres.Options) *pgxpool.Pool {
	t.Helper()
	pool, err := postgres.Connect(t.Context(), url, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return pool
}

func wantSQLState(t *testing.T, what string, err error, code string) {
	t.Helper()
	var s sqlStater
	if !errors.As(err, &s) || s.SQLState() != code {
		t.Fatalf("%s: %v, want SQLSTATE %s", what, err, code)
	}
}

func TestPoolSetsItsTimeoutsOnEveryConnection(t *testing.T) {
	pool := timedPool(t, testkit.DatabaseURL(t, widgets), postgres.Options{
		MaxConns: 2, StatementTimeout: 1500 * time.Millisecond, LockTimeout: 250 * time.Millisecond, IdleInTransactionTimeout: time.Minute,
	})
	for name, want := range map[string]string{
		"statement_timeout": "1500ms", "lock_timeout": "250ms", "idle_in_transaction_session_timeout": "1min",
	} {
		var got string
		if err := pool.QueryRow(t.Context(), "SELECT current_setting($1)", name).Scan(&got); err != nil || got != want {
			t.Errorf("%s = %q (%v), want %q", name, got, err, want)
		}
	}
	var got string
	plain := testkit.Pool(t, widgets)
	if err := plain.QueryRow(t.Context(), "SELECT current_setting('lock_timeout')").Scan(&got); err != nil || got != "0" {
		t.Errorf("a pool without options has lock_timeout %q (%v), want the server's 0", got, err)
	}
}

func TestLockWaitFailsAtLockTimeout(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), safetyNet)
	defer cancel()
	url := testkit.DatabaseURL(t, widgets)
	holder, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close(context.Background())
	tx, err := holder.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(context.Background()) //nolint:errcheck // the lock is released either way
	if _, err := tx.Exec(ctx, "LOCK TABLE widgets IN ACCESS EXCLUSIVE MODE"); err != nil {
		t.Fatal(err)
	}

	pool := timedPool(t, url, postgres.Options{MaxConns: 2, StatementTimeout: time.Minute, LockTimeout: 100 * time.Millisecond})
	_, err = pool.Exec(ctx, "INSERT INTO widgets VALUES (1, 'a')")
	wantSQLState(t, "an insert into a locked table", err, "55P03")

	if err := tx.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, "INSERT INTO widgets VALUES (1, 'a')"); err != nil {
		t.Fatalf("once the lock is gone: %v", err)
	}
}

func TestLongStatementIsCancelledAtStatementTimeout(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), safetyNet)
	defer cancel()
	pool := timedPool(t, testkit.DatabaseURL(t, widgets), postgres.Options{MaxConns: 1, StatementTimeout: 100 * time.Millisecond})
	_, err := pool.Exec(ctx, "SELECT pg_sleep(60)")
	wantSQLState(t, "a 60 s statement", err, "57014")
	var one int
	if err := pool.QueryRow(ctx, "SELECT 1").Scan(&one); err != nil || one != 1 {
		t.Fatalf("the pool after a cancelled statement: %d %v", one, err)
	}
}

func TestIdleTransactionEndsAtIdleInTransactionTimeout(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), safetyNet)
	defer cancel()
	pool := timedPool(t, testkit.DatabaseURL(t, widgets), postgres.Options{MaxConns: 2, IdleInTransactionTimeout: 100 * time.Millisecond})
	tx, err := pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(context.Background()) //nolint:errcheck // the session is gone already
	var pid int32
	if err := tx.QueryRow(ctx, "SELECT pg_backend_pid()").Scan(&pid); err != nil {
		t.Fatal(err)
	}
	// The server ends the idle session; wait for its backend to go.
	for {
		var n int
		if err := pool.QueryRow(ctx, "SELECT count(*) FROM pg_stat_activity WHERE pid = $1", pid).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatal("the idle transaction's session was not ended")
		case <-time.After(20 * time.Millisecond):
		}
	}
	if _, err := tx.Exec(ctx, "SELECT 1"); err == nil {
		t.Fatal("a statement ran in a transaction whose session was ended")
	}
}

// TestPoolAcquireEndsAtTheCallersDeadline: with every connection taken, a query waits for one
// only until its context's deadline, and says so with context.DeadlineExceeded, which
// libs/httpserver answers as a request that ran out of time.
func TestPoolAcquireEndsAtTheCallersDeadline(t *testing.T) {
	pool := timedPool(t, testkit.DatabaseURL(t, widgets), postgres.Options{MaxConns: 1})
	held, err := pool.Acquire(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	_, err = pool.Exec(ctx, "SELECT 1")
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a query waiting for a connection: %v, want context.DeadlineExceeded", err)
	}
	held.Release()
	if _, err := pool.Exec(t.Context(), "SELECT 1"); err != nil {
		t.Fatalf("once a connection is free: %v", err)
	}
}

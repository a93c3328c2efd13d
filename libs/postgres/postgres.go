// Package postgres opens traced pgx pools whose connections bound how long a statement, a lock
// wait and an idle transaction may take, applies embedded goose migrations and runs functions in
// transactions.
package postgres

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"strconv"
	"time"

	"github.com/exaring/otelpgx"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/podiumhq/podium/libs/config"
)

// Options configures a pool.
type Options struct {
	// MaxConns bounds the pool (zero: pgxpool's default).
	MaxConns int32
	// StatementTimeout cancels a statement running longer (SQLSTATE 57014), LockTimeout one
	// waiting longer for a lock (55P03), and IdleInTransactionTimeout ends a session whose
	// transaction sits idle longer: Postgres's statement_timeout, lock_timeout and
	// idle_in_transaction_session_timeout, set on every connection of the pool. Zero leaves the
	// server's setting (none, unless the database or role sets one).
	StatementTimeout         time.Duration
	LockTimeout              time.Duration
	IdleInTransactionTimeout time.Duration
}

// Connect opens a pool on url with query tracing (spans named by spanName) and checks the
// connection. Migrate opens its own connection, so the pool's timeouts never cut a migration
// short.
func Connect(ctx context.Context, url string, o Options) (*pgxpool.Pool, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("postgres: parse url: %w", err)
	}
	if o.MaxConns > 0 {
		cfg.MaxConns = o.MaxConns
	}
	setTimeout(cfg.ConnConfig.RuntimeParams, "statement_timeout", o.StatementTimeout)
	setTimeout(cfg.ConnConfig.RuntimeParams, "lock_timeout", o.LockTimeout)
	setTimeout(cfg.ConnConfig.RuntimeParams, "idle_in_transaction_session_timeout", o.IdleInTransactionTimeout)
	cfg.MaxConnIdleTime = 5 * time.Minute
	cfg.ConnConfig.Tracer = otelpgx.NewTracer(otelpgx.WithDisableAcquireTracer(), otelpgx.WithSpanNameCtxFunc(spanName))
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: open pool: %w", err)
	}
	pingCtx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := pool.Ping(pingCtx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("postgres: ping: %w", err)
	}
	return pool, nil
}

// setTimeout sets the run-time parameter name to d in milliseconds (at least 1, since 0 turns
// the timeout off) when d is positive.
func setTimeout(params map[string]string, name string, d time.Duration) {
	if d <= 0 {
		return
	}
	params[name] = strconv.FormatInt(max(d.Milliseconds(), 1), 10)
}

// InTx runs fn in a transaction, committing when it returns nil and rolling back otherwise.
func InTx(ctx context.Context, pool *pgxpool.Pool, fn func(pgx.Tx) error) error {
	return pgx.BeginFunc(ctx, pool, fn)
}

// LockID is the id of a transaction-scoped advisory lock (pg_advisory_xact_lock) named by
// parts: a 64-bit FNV-1a hash of them, each followed by a zero byte so no two lists of parts
// run together alike. Two names sharing an id only wait on each other.
func LockID(parts ...string) int64 {
	h := fnv.New64a()
	for _, s := range parts {
		_, _ = h.Write([]byte(s))
		_, _ = h.Write([]byte{0})
	}
	return int64(h.Sum64()) //nolint:gosec // a lock id: any 64 bits will do
}

// IsUniqueViolation reports whether err is a unique-constraint violation, optionally of the
// named constraint.
func IsUniqueViolation(err error, constraint string) bool {
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) || pgErr.Code != "23505" {
		return false
	}
	return constraint == "" || pgErr.ConstraintName == constraint
}

// IsNoRows reports whether err means a query found no row.
func IsNoRows(err error) bool { return errors.Is(err, pgx.ErrNoRows) }

// Open opens the pool a service's configuration describes: at most c.DBMaxConns connections,
// or defaultMaxConns when it sets none, each with c's timeouts.
func Open(ctx context.Context, c config.Postgres, defaultMaxConns int32) (*pgxpool.Pool, error) {
	maxConns := c.DBMaxConns
	if maxConns == 0 {
		maxConns = defaultMaxConns
	}
	return Connect(ctx, c.DatabaseURL, Options{
		MaxConns: maxConns, StatementTimeout: c.DBStatementTimeout, LockTimeout: c.DBLockTimeout,
		IdleInTransactionTimeout: c.DBIdleInTransactionTimeout,
	})
}

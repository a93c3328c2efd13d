// Package testkit gives tests real infrastructure of their own: a fresh Postgres database with
// the service's migrations, an isolated Redis key space, an in-process Kafka-protocol broker.
package testkit

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/podiumhq/podium/libs/postgres"
)

// PostgresAdminURL is the server tests create their databases on (TEST_POSTGRES_URL).
func PostgresAdminURL() string {
	if u := os.Getenv("TEST_POSTGRES_URL"); u != "" {
		return u
	}
	return "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"
}

// DatabaseURL creates a database of the test's own, with the migration sets applied, and drops
// it when the test ends. Databases are cloned from a template made once per distinct set of
// migrations, so each costs one CREATE DATABASE.
func DatabaseURL(t testing.TB, sets ...postgres.Migrations) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	admin, err := pgx.Connect(ctx, PostgresAdminURL())
	if err != nil {
		t.Fatalf("testkit: connect to Postgres at %s: %v", PostgresAdminURL(), err)
	}
	defer admin.Close(ctx)

	tpl, err := template(ctx, admin, sets)
	if err != nil {
		t.Fatalf("testkit: template database: %v", err)
	}
	name := "test_" + randomHex(8)
	if err := createFrom(ctx, admin, name, tpl); err != nil {
		t.Fatalf("testkit: create database: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		conn, err := pgx.Connect(ctx, PostgresAdminURL())
		if err != nil {
			t.Errorf("testkit: drop database %s: %v", name, err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			t.Errorf("testkit: drop database %s: %v", name, err)
		}
	})
	return withDatabase(PostgresAdminURL(), name)
}

// MigrationsBefore returns set with only its migrations older than the file named first
// ("00006_"): the schema a migration test fills before it migrates up.
func MigrationsBefore(t testing.TB, set postgres.Migrations, first string) postgres.Migrations {
	t.Helper()
	entries, err := fs.ReadDir(set.FS, ".")
	if err != nil {
		t.Fatalf("testkit: migrations: %v", err)
	}
	older := fstest.MapFS{}
	for _, e := range entries {
		if e.Name() >= first {
			continue
		}
		b, err := fs.ReadFile(set.FS, e.Name())
		if err != nil {
			t.Fatalf("testkit: migrations: %v", err)
		}
		older[e.Name()] = &fstest.MapFile{Data: b}
	}
	set.FS = older
	return set
}

// Pool is DatabaseURL with an open pool that closes when the test ends.
func Pool(t testing.TB, sets ...postgres.Migrations) *pgxpool.Pool {
	t.Helper()
	pool, err := postgres.Connect(context.Background(), DatabaseURL(t, sets...), postgres.Options{MaxConns: 8})
	if err != nil {
		t.Fatalf("testkit: %v", err)
	}
	t.Cleanup(pool.Close)
	return pool
}

// template returns the name of a migrated template database for sets, creating it under an
// advisory lock so parallel test processes build it once.
func template(ctx context.Context, admin *pgx.Conn, sets []postgres.Migrations) (string, error) {
	digest, err := migrationsDigest(sets)
	if err != nil {
		return "", err
	}
	name := "tpl_" + digest[:16]
	lockKey := int64(binary.BigEndian.Uint64(mustDecode(digest[:16]))) //nolint:gosec // any 64 bits make a lock key
	if _, err := admin.Exec(ctx, "SELECT pg_advisory_lock($1)", lockKey); err != nil {
		return "", err
	}
	defer admin.Exec(context.Background(), "SELECT pg_advisory_unlock($1)", lockKey) //nolint:errcheck,contextcheck // the session ends right after

	var exists bool
	if err := admin.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&exists); err != nil || exists {
		return name, err
	}
	building := name + "_build"
	if _, err := admin.Exec(ctx, "DROP DATABASE IF EXISTS "+building+" WITH (FORCE)"); err != nil {
		return "", err
	}
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+building); err != nil {
		return "", err
	}
	if err := postgres.Migrate(ctx, withDatabase(PostgresAdminURL(), building), Discard(), sets...); err != nil {
		return "", err
	}
	if _, err := admin.Exec(ctx, "ALTER DATABASE "+building+" RENAME TO "+name); err != nil {
		return "", err
	}
	return name, nil
}

// createFrom clones tpl, retrying while another session briefly holds the template open.
func createFrom(ctx context.Context, admin *pgx.Conn, name, tpl string) error {
	var err error
	for range 50 {
		if _, err = admin.Exec(ctx, "CREATE DATABASE "+name+" TEMPLATE "+tpl); err == nil ||
			!strings.Contains(err.Error(), "is being accessed by other users") {
			return err
		}
		time.Sleep(100 * time.Millisecond)
	}
	return err
}

func migrationsDigest(sets []postgres.Migrations) (string, error) {
	h := sha256.New()
	for _, set := range sets {
		fmt.Fprintf(h, "set %s\n", set.Table)
		err := fs.WalkDir(set.FS, ".", func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := fs.ReadFile(set.FS, path)
			fmt.Fprintf(h, "file %s %d\n", path, len(b))
			h.Write(b)
			return err
		})
		if err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func withDatabase(raw, db string) string {
	u, err := url.Parse(raw)
	if err != nil {
		panic(fmt.Sprintf("testkit: TEST_POSTGRES_URL is not a URL: %v", err))
	}
	u.Path = "/" + db
	return u.String()
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func mustDecode(s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

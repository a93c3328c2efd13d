package postgres_test

import (
	"errors"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/podiumhq/podium/libs/postgres"
	"github.com/podiumhq/podium/libs/testkit"
)

var widgets = postgres.Migrations{Table: "widgets_schema_version", FS: os.DirFS("testdata/migrations")}

func TestMigrateIsIdempotent(t *testing.T) {
	url := testkit.DatabaseURL(t, widgets)
	if err := postgres.Migrate(t.Context(), url, testkit.Logger(t), widgets); err != nil {
		t.Fatalf("second Migrate on a migrated database: %v", err)
	}
	pool, err := postgres.Connect(t.Context(), url, postgres.Options{MaxConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	var version int64
	if err := pool.QueryRow(t.Context(), "SELECT max(version_id) FROM widgets_schema_version").Scan(&version); err != nil || version != 1 {
		t.Fatalf("version table says %d (%v), want 1", version, err)
	}
}

func TestInTxRollsBackOnErrorAndClassifiesErrors(t *testing.T) {
	ctx := t.Context()
	pool := testkit.Pool(t, widgets)
	boom := errors.New("boom")
	err := postgres.InTx(ctx, pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "INSERT INTO widgets VALUES (1, 'a')"); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("InTx returned %v, want boom", err)
	}
	var n int
	if err := pool.QueryRow(ctx, "SELECT count(*) FROM widgets").Scan(&n); err != nil || n != 0 {
		t.Fatalf("rolled-back insert left %d rows (%v)", n, err)
	}

	if _, err := pool.Exec(ctx, "INSERT INTO widgets VALUES (1, 'a')"); err != nil {
		t.Fatal(err)
	}
	_, err = pool.Exec(ctx, "INSERT INTO widgets VALUES (2, 'a')")
	if !postgres.IsUniqueViolation(err, "widgets_name_key") || postgres.IsUniqueViolation(err, "other") {
		t.Fatalf("IsUniqueViolation misclassified %v", err)
	}
	err = pool.QueryRow(ctx, "SELECT name FROM widgets WHERE id = 9").Scan(new(string))
	if !postgres.IsNoRows(err) {
		t.Fatalf("IsNoRows(%v) = false", err)
	}
}

func TestEachTestGetsItsOwnDatabase(t *testing.T) {
	a, b := testkit.Pool(t, widgets), testkit.Pool(t, widgets)
	ctx := t.Context()
	if _, err := a.Exec(ctx, "INSERT INTO widgets VALUES (1, 'only in a')"); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := b.QueryRow(ctx, "SELECT count(*) FROM widgets").Scan(&n); err != nil || n != 0 {
		t.Fatalf("database b sees %d rows written to a (%v)", n, err)
	}
}

func TestLockIDSeparatesItsParts(t *testing.T) {
	if postgres.LockID("ab", "c") == postgres.LockID("a", "bc") {
		t.Fatal("LockID runs parts together")
	}
	if a, b := postgres.LockID("holds", "evt_1"), postgres.LockID("holds", "evt_1"); a != b {
		t.Fatalf("LockID is not stable: %d and %d", a, b)
	}
}

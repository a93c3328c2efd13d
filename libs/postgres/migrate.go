package postgres

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"log/slog"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" database/sql driver
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
)

// Migrations is one set of embedded goose SQL migrations with its own version table, so a
// library (the outbox) and a service can version their tables independently.
type Migrations struct {
	// Table records which versions of this set are applied.
	Table string
	// FS holds the *.sql files at its root.
	FS fs.FS
}

// Migrate applies every pending migration of each set, in order, holding a Postgres advisory
// lock so concurrent runs wait for each other.
func Migrate(ctx context.Context, url string, log *slog.Logger, sets ...Migrations) error {
	db, err := sql.Open("pgx", url)
	if err != nil {
		return fmt.Errorf("postgres: migrate: %w", err)
	}
	defer db.Close()
	for _, set := range sets {
		if err := migrateSet(ctx, db, log, set); err != nil {
			return err
		}
	}
	return nil
}

func migrateSet(ctx context.Context, db *sql.DB, log *slog.Logger, set Migrations) error {
	locker, err := lock.NewPostgresSessionLocker()
	if err != nil {
		return fmt.Errorf("postgres: migrate %s: %w", set.Table, err)
	}
	p, err := goose.NewProvider(goose.DialectPostgres, db, set.FS,
		goose.WithTableName(set.Table), goose.WithSessionLocker(locker), goose.WithDisableGlobalRegistry(true))
	if err != nil {
		return fmt.Errorf("postgres: migrate %s: %w", set.Table, err)
	}
	results, err := p.Up(ctx)
	if err != nil {
		return fmt.Errorf("postgres: migrate %s: %w", set.Table, err)
	}
	for _, r := range results {
		log.InfoContext(ctx, "migration applied", "set", set.Table, "version", r.Source.Version, "took", r.Duration)
	}
	return nil
}

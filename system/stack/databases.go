package stack

import (
	"context"
	"errors"
	"fmt"
	"net/url"

	"github.com/jackc/pgx/v5"
)

// createDatabases makes each service's database unless it exists.
func (s *Stack) createDatabases(ctx context.Context) error {
	prefix := s.opts.DatabasePrefix
	if prefix == "" {
		prefix, s.dropDatabases = "stack_"+randomHex(4), true
	}
	conn, err := pgx.Connect(ctx, s.opts.PostgresURL)
	if err != nil {
		return fmt.Errorf("stack: Postgres at %s: %w", s.opts.PostgresURL, err)
	}
	defer conn.Close(ctx)
	for svc := range withDatabase {
		name := prefix + "_" + svc
		var exists bool
		if err := conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&exists); err != nil {
			return err
		}
		if !exists {
			if _, err := conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()); err != nil {
				return fmt.Errorf("stack: create database %s: %w", name, err)
			}
		}
		u, err := url.Parse(s.opts.PostgresURL)
		if err != nil {
			return err
		}
		u.Path = "/" + name
		s.databases[svc] = u.String()
	}
	return nil
}

func (s *Stack) dropAll(ctx context.Context) error {
	conn, err := pgx.Connect(ctx, s.opts.PostgresURL)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	var errs []error
	for _, dbURL := range s.databases {
		u, _ := url.Parse(dbURL)
		name := u.Path[1:]
		if _, err := conn.Exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)"); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

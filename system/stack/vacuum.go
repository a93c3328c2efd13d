package stack

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// VacuumAnalyze runs VACUUM ANALYZE on tables of a service's database, which is what
// Postgres's autovacuum does after bulk writes. Benchmarks call it after seeding: the Postgres
// they run on may have autovacuum off (the development machines' does), and a table would then
// keep the planner statistics of its empty start and an ever longer pending list in its GIN
// indexes, which a production database never shows.
func (s *Stack) VacuumAnalyze(ctx context.Context, service string, tables ...string) error {
	dbURL, ok := s.databases[service]
	if !ok {
		return fmt.Errorf("stack: %s owns no database", service)
	}
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		return fmt.Errorf("stack: vacuum %s: %w", service, err)
	}
	defer conn.Close(ctx)
	for _, t := range tables {
		if _, err := conn.Exec(ctx, "VACUUM ANALYZE "+pgx.Identifier{t}.Sanitize()); err != nil {
			return fmt.Errorf("stack: vacuum %s.%s: %w", service, t, err)
		}
	}
	return nil
}

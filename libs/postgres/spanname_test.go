package postgres

import (
	"context"
	"testing"
)

func TestSpanNameSaysWhatTheStatementDoes(t *testing.T) {
	for _, tc := range []struct{ stmt, want string }{
		{"-- name: GetOrder :one\nSELECT id FROM orders WHERE id = $1", "GetOrder"},
		{"-- checks\n-- name: ListWidgets :many\nSELECT * FROM widgets", "ListWidgets"},
		{"SELECT id, name FROM widgets WHERE id = $1", "SELECT widgets"},
		{"select count(*) from public.events e join categories c on c.event_id = e.id", "SELECT public.events"},
		{`INSERT INTO "outbox" (topic, key) VALUES ($1, $2)`, "INSERT outbox"},
		{"UPDATE ONLY orders SET status = 'PAID' WHERE id = $1", "UPDATE orders"},
		{"DELETE FROM outbox WHERE id = ANY($1)", "DELETE outbox"},
		{"WITH gone AS (DELETE FROM holds WHERE expires_at < now() RETURNING id) UPDATE orders SET status = 'X' FROM gone", "UPDATE orders"},
		{"SELECT extract(epoch FROM now())", "SELECT"},
		{"SELECT n FROM (SELECT 1 AS n) s", "SELECT"},
		{"SELECT * FROM unnest($1::text[])", "SELECT"},
		{"SELECT pg_notify($1, '')", "SELECT"},
		{"/* leading */ begin", "BEGIN"},
		{"  ", "UNKNOWN"},
	} {
		if got := spanName(context.Background(), tc.stmt); got != tc.want {
			t.Errorf("spanName(%q) = %q, want %q", tc.stmt, got, tc.want)
		}
	}
}

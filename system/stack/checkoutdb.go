package stack

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// DatabaseURL returns the Postgres URL of a service's own database ("checkout", ...), as an
// operator would find it in the service's DATABASE_URL.
func (s *Stack) DatabaseURL(svc string) string { return s.databases[svc] }

// CheckoutState reads, without changing anything, the state of the checkout of an order in
// checkout's database ("OPEN", "PAID", "COMPLETED", ...), for tests that must show a refused
// or ignored webhook left the record as it was.
func (s *Stack) CheckoutState(ctx context.Context, orderID string) (string, error) {
	conn, err := pgx.Connect(ctx, s.DatabaseURL("checkout"))
	if err != nil {
		return "", err
	}
	defer conn.Close(ctx)
	var state string
	if err := conn.QueryRow(ctx, `SELECT state FROM checkouts WHERE order_id = $1`, orderID).Scan(&state); err != nil {
		return "", fmt.Errorf("stack: checkout of order %s: %w", orderID, err)
	}
	return state, nil
}

package stack

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"

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

// CheckoutRefunds runs checkout's operator command `checkout refunds args...` on its database,
// as an operator would, and returns the JSON lines it printed.
func (s *Stack) CheckoutRefunds(ctx context.Context, args ...string) ([]map[string]any, error) {
	cmd := exec.CommandContext(ctx, bin(s.opts.BinDir, "checkout"), append([]string{"refunds"}, args...)...)
	cmd.Env = []string{"DATABASE_URL=" + s.DatabaseURL("checkout")}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("stack: checkout refunds %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	var lines []map[string]any
	for sc := bufio.NewScanner(&stdout); sc.Scan(); {
		var l map[string]any
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			return nil, fmt.Errorf("stack: checkout refunds %s printed %q: %w", strings.Join(args, " "), sc.Text(), err)
		}
		lines = append(lines, l)
	}
	return lines, nil
}

package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
)

// checkouts reads sessions from checkout's database, read-only.
type checkouts struct{ conn *pgx.Conn }

func openCheckouts(ctx context.Context, url string) (*checkouts, error) {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return nil, fmt.Errorf("checkout's database: %w", err)
	}
	return &checkouts{conn: conn}, nil
}

func (c *checkouts) close(ctx context.Context) { _ = c.conn.Close(ctx) }

// sessionColumns are what the event says of a checkout.
const sessionColumns = `SELECT id, coalesce(session_id, ''), coalesce(order_id, ''), event_id, organizer_id,
	coalesce(payment_intent, ''), currency, total FROM checkouts `

// session finds the checkout a chk_… id, a session id (cs_… or free_…, the latest checkout
// with it) or an order id (ord_…) names.
func (c *checkouts) session(ctx context.Context, id string) (session, error) {
	where := `WHERE id = $1`
	switch {
	case strings.HasPrefix(id, "cs_"), strings.HasPrefix(id, "free_"):
		where = `WHERE session_id = $1 ORDER BY created_at DESC LIMIT 1`
	case strings.HasPrefix(id, "ord_"):
		where = `WHERE order_id = $1 ORDER BY created_at DESC LIMIT 1`
	}
	var s session
	err := c.conn.QueryRow(ctx, sessionColumns+where, id).Scan(&s.CheckoutID, &s.SessionID, &s.OrderID, &s.EventID, &s.OrganizerID,
		&s.PaymentIntent, &s.Currency, &s.Amount)
	if errors.Is(err, pgx.ErrNoRows) {
		return session{}, errors.New("no checkout has it")
	}
	return s, err
}

-- name: GetOrder :one
SELECT * FROM orders WHERE id = $1;

-- name: GetOrderForUpdate :one
SELECT * FROM orders WHERE id = $1 FOR UPDATE;

-- name: GetOrderByHold :one
SELECT * FROM orders WHERE organizer_id = $1 AND livemode = $2 AND hold_id = $3;

-- name: GetOrders :many
SELECT * FROM orders WHERE id = ANY(sqlc.arg(ids)::text[]);

-- name: SetOrderState :exec
-- An order leaving PENDING no longer needs the client network its hold was capped by.
UPDATE orders SET status = sqlc.arg(status), payment_ref = sqlc.narg(payment_ref), amount_paid = sqlc.narg(amount_paid),
    paid_at = sqlc.narg(paid_at), released_at = sqlc.narg(released_at), release_reason = sqlc.narg(release_reason),
    updated_at = sqlc.arg(updated_at),
    client_network = CASE WHEN sqlc.arg(status)::text = 'PENDING' THEN client_network END
WHERE id = sqlc.arg(id);

-- name: ExpiredHolds :many
SELECT id, livemode FROM orders
WHERE status = 'PENDING' AND expires_at <= sqlc.arg(now)::timestamptz
ORDER BY expires_at
LIMIT sqlc.arg(max_rows);

-- name: SetTicketsOrderStatus :exec
UPDATE tickets SET order_status = $2 WHERE order_id = $1;

-- name: ReceiptOrders :many
SELECT o.id, o.amount, o.currency, o.created_at
FROM orders o
WHERE o.organizer_id = sqlc.arg(organizer_id) AND o.livemode = sqlc.arg(livemode) AND o.event_id = sqlc.arg(event_id) AND o.status = 'COMPLETED'
  AND (lower(o.purchaser_email) = sqlc.arg(email)::text
       OR o.id IN (SELECT t.order_id FROM tickets t
                   WHERE t.event_id = sqlc.arg(event_id) AND lower(t.email) = sqlc.arg(email)::text)
       OR o.id IN (SELECT r.order_id FROM registrations r
                   WHERE r.event_id = sqlc.arg(event_id) AND lower(r.guest_email) = sqlc.arg(email)::text
                     AND r.guest_email IS NOT NULL))
  AND EXISTS (SELECT 1 FROM tickets a WHERE a.order_id = o.id AND a.status = 'ACTIVE')
ORDER BY o.created_at, o.id;

-- name: InsertOrders :exec
-- Inserts the orders of rows, a JSON array of objects keyed by column name (write.go).
INSERT INTO orders (
    id, organizer_id, event_id, status, source, hold_id, amount, currency, purchaser_email,
    purchaser_name, promocode, expires_at, paid_at, created_at, updated_at, client_network, livemode
)
SELECT id, organizer_id, event_id, status, source, hold_id, amount, currency, purchaser_email,
    purchaser_name, promocode, expires_at, paid_at, created_at, updated_at, client_network, livemode
FROM json_populate_recordset(NULL::orders, sqlc.arg(rows)::json);

-- name: SetOrderRefunded :exec
-- Records what the order's refunds return in all; a report older than one applied already
-- changes nothing.
UPDATE orders SET amount_refunded = GREATEST(amount_refunded, sqlc.arg(amount_refunded)::bigint), updated_at = sqlc.arg(updated_at)
WHERE id = sqlc.arg(id);

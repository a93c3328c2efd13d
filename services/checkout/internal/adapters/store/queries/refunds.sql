-- name: LockPaidCheckoutOfOrder :one
-- The latest checkout of an organizer's order in one mode, locked: refunds of a payment are
-- decided one after another.
SELECT * FROM checkouts
WHERE order_id = $1 AND organizer_id = $2 AND livemode = $3
ORDER BY created_at DESC LIMIT 1 FOR UPDATE;

-- name: AddRefunded :execrows
-- Counts a decided refund against its payment, never beyond what was paid.
UPDATE checkouts SET amount_refunded = amount_refunded + sqlc.arg(amount)::bigint
WHERE id = sqlc.arg(id) AND amount_refunded + sqlc.arg(amount)::bigint <= coalesce(amount_paid, 0);

-- name: GiveRefundedBack :exec
-- A refund failed for good returns nothing: its amount is no longer counted.
UPDATE checkouts SET amount_refunded = amount_refunded - sqlc.arg(amount)::bigint WHERE id = sqlc.arg(id);

-- name: InsertRefund :exec
INSERT INTO refunds (
    id, organizer_id, livemode, checkout_id, order_id, payment_intent, amount, currency, reason,
    ticket_ids, cancel_tickets, state, next_attempt_at, created_at, updated_at
) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'pending', $12, $12, $12);

-- name: GetRefund :one
SELECT * FROM refunds WHERE id = $1 AND organizer_id = $2 AND livemode = $3;

-- name: GetRefundForUpdate :one
SELECT * FROM refunds WHERE id = $1 FOR UPDATE;

-- name: RefundsOfOrder :many
SELECT * FROM refunds WHERE organizer_id = $1 AND livemode = $2 AND order_id = $3
ORDER BY created_at, id LIMIT $4 OFFSET $5;

-- name: CountRefundsOfOrder :one
SELECT count(*) FROM refunds WHERE organizer_id = $1 AND livemode = $2 AND order_id = $3;

-- name: SucceededRefundTotal :one
SELECT coalesce(sum(amount), 0)::bigint FROM refunds WHERE checkout_id = $1 AND state = 'succeeded';

-- name: ClaimOrderRefund :one
-- Claims the refund due longest at now that no worker holds, as ClaimRefund does for the
-- checkouts' own refunds: the lease is on the database's clock and no lock outlives the
-- statement.
UPDATE refunds SET
    claim = claim + 1,
    claimed_until = now() + make_interval(secs => sqlc.arg(lease_seconds)::float8)
WHERE id = (
    SELECT due.id FROM refunds due
    WHERE due.state = 'pending'
      AND (due.next_attempt_at IS NULL OR due.next_attempt_at <= sqlc.arg(now)::timestamptz)
      AND (due.claimed_until IS NULL OR due.claimed_until <= now())
    ORDER BY due.next_attempt_at NULLS FIRST LIMIT 1 FOR UPDATE SKIP LOCKED
)
RETURNING *;

-- name: UpdateRefund :exec
UPDATE refunds SET
    state = $2, provider_refund_id = $3, failure_code = $4, failure_message = $5, attempts = $6,
    next_attempt_at = $7, claimed_until = $8, updated_at = $9, succeeded_at = $10, failed_at = $11
WHERE id = $1;

-- name: OrderOfTickets :one
-- The order of an organizer's paid checkout in one mode whose hold holds every ticket given
-- (tickets: [["tkt_1"], ["tkt_2"]]).
SELECT order_id FROM checkouts
WHERE organizer_id = $1 AND livemode = $2 AND hold_tickets @> sqlc.arg(tickets)::jsonb AND hold_tickets IS NOT NULL
ORDER BY created_at DESC LIMIT 1;

-- name: RefundedTickets :many
-- The tickets that a pending or succeeded refund of a checkout names already.
SELECT DISTINCT unnest(ticket_ids)::text FROM refunds WHERE checkout_id = $1 AND state <> 'failed';

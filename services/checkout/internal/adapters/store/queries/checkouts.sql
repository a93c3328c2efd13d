-- name: InsertCheckout :execrows
INSERT INTO checkouts (
    id, organizer_id, key_id, idempotency_key, event_id, state, currency, total, quote,
    promocode, promocode_state, purchaser_email, purchaser_name, legal_signature, ip_enrichment,
    deferred, hold_expires_at, created_at, updated_at, promocode_max_uses, livemode
) VALUES (
    $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21
) ON CONFLICT (id) DO NOTHING;

-- name: GetCheckout :one
SELECT * FROM checkouts WHERE id = $1;

-- name: GetCheckoutForUpdate :one
SELECT * FROM checkouts WHERE id = $1 FOR UPDATE;

-- name: CheckoutIDsBySession :many
-- The latest checkouts of a session id, of one mode when given (stripe-mock gives every
-- session one id).
SELECT id FROM checkouts
WHERE session_id = $1 AND (sqlc.narg(livemode)::boolean IS NULL OR livemode = sqlc.narg(livemode))
ORDER BY created_at DESC LIMIT 2;

-- name: CheckoutIDByOrder :one
SELECT id FROM checkouts WHERE order_id = $1 ORDER BY created_at DESC LIMIT 1;

-- name: UpdateCheckout :exec
UPDATE checkouts SET
    state = $2, promocode_state = $3, order_id = $4, session_id = $5, session_url = $6,
    payment_intent = $7, amount_paid = $8, refund_id = $9, session_expires_at = $10,
    updated_at = $11, paid_at = $12, completed_at = $13, refund_reason = $14, refund_attempts = $15,
    refund_next_attempt_at = $16, refund_error_code = $17, refund_error_message = $18, refund_failed_at = $19,
    refund_claim = $20, refund_claimed_until = $21, hold_tickets = $22
WHERE id = $1;

-- name: StaleCheckouts :many
SELECT id FROM checkouts WHERE state = 'CREATED' AND created_at < $1 ORDER BY created_at LIMIT 500;

-- name: ClaimRefund :one
-- Claims the refund due longest at now (the service's clock; a refund decided by an older
-- version has no next attempt and is due at once) that no worker holds, for one worker: its
-- claim count grows by one and its lease ends lease_seconds after the database's now(), so
-- the instances' clocks do not matter. A row another transaction holds is skipped, and no lock
-- outlives the statement.
UPDATE checkouts SET
    refund_claim = refund_claim + 1,
    refund_claimed_until = now() + make_interval(secs => sqlc.arg(lease_seconds)::float8)
WHERE id = (
    SELECT due.id FROM checkouts due
    WHERE due.state = 'REFUND_PENDING'
      AND (due.refund_next_attempt_at IS NULL OR due.refund_next_attempt_at <= sqlc.arg(now)::timestamptz)
      AND (due.refund_claimed_until IS NULL OR due.refund_claimed_until <= now())
    ORDER BY due.refund_next_attempt_at NULLS FIRST LIMIT 1 FOR UPDATE SKIP LOCKED
)
RETURNING *;

-- name: TestCheckoutOfOrganizer :one
-- A test checkout of an organizer by its session id (the latest) or, for a free one, by it.
SELECT * FROM checkouts WHERE organizer_id = $1 AND NOT livemode AND session_id = $2
ORDER BY created_at DESC LIMIT 1;

-- name: DeleteTestCheckouts :execrows
DELETE FROM checkouts WHERE organizer_id = $1 AND NOT livemode;

-- name: DeleteTestIdempotency :execrows
DELETE FROM idempotency_keys WHERE organizer_id = $1 AND NOT livemode;

-- name: FailedRefunds :many
SELECT * FROM checkouts WHERE state = 'REFUND_FAILED' ORDER BY refund_failed_at, id;

-- name: FailedRefundCount :one
SELECT count(*) FROM checkouts WHERE state = 'REFUND_FAILED';

-- name: OldestPendingRefund :many
-- When the oldest pending refund became pending, a late payment's or an organizer's (none, or
-- one row).
SELECT since::timestamptz FROM (
    SELECT updated_at AS since FROM checkouts WHERE state = 'REFUND_PENDING'
    UNION ALL
    SELECT created_at FROM refunds WHERE state = 'pending'
) pending ORDER BY since LIMIT 1;

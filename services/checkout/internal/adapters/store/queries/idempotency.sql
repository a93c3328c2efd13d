-- name: GetIdempotency :one
SELECT key_id, idempotency_key, request_hash, state, checkout_id, response, locked_until, expires_at, livemode
FROM idempotency_keys
WHERE key_id = $1 AND livemode = $2 AND idempotency_key = $3;

-- name: InsertIdempotency :execrows
INSERT INTO idempotency_keys (
    key_id, idempotency_key, request_hash, state, checkout_id, locked_until, created_at, expires_at, livemode, organizer_id
) VALUES ($1, $2, $3, 'RUNNING', $4, $5, $6, $7, $8, $9)
ON CONFLICT (key_id, livemode, idempotency_key) DO NOTHING;

-- name: TakeOverIdempotency :one
-- Claims a failed, lapsed or expired record for a new request. An interrupted attempt
-- (RUNNING, lease lapsed, within retention) keeps its checkout if that checkout can resume.
UPDATE idempotency_keys i SET
    state = 'RUNNING',
    request_hash = sqlc.arg(request_hash),
    locked_until = sqlc.arg(locked_until),
    expires_at = sqlc.arg(expires_at),
    checkout_id = CASE
        WHEN i.state = 'RUNNING' AND i.expires_at > sqlc.arg(now)::timestamptz AND EXISTS (
            SELECT 1 FROM checkouts c WHERE c.id = i.checkout_id AND c.state IN ('CREATED', 'HELD'))
        THEN i.checkout_id
        ELSE sqlc.arg(new_checkout_id)::text
    END,
    response = NULL
WHERE i.key_id = sqlc.arg(key_id) AND i.livemode = sqlc.arg(livemode) AND i.idempotency_key = sqlc.arg(idempotency_key)
  AND (i.state = 'FAILED'
       OR (i.state = 'RUNNING' AND i.locked_until < sqlc.arg(now)::timestamptz)
       OR i.expires_at <= sqlc.arg(now)::timestamptz)
RETURNING i.checkout_id;

-- name: SucceedIdempotency :execrows
UPDATE idempotency_keys SET state = 'SUCCEEDED', response = $4
WHERE key_id = $1 AND idempotency_key = $2 AND checkout_id = $3 AND livemode = $5 AND state = 'RUNNING';

-- name: FailIdempotency :exec
UPDATE idempotency_keys SET state = 'FAILED', response = NULL
WHERE key_id = $1 AND idempotency_key = $2 AND checkout_id = $3 AND livemode = $4 AND state = 'RUNNING';

-- name: DeleteExpiredIdempotency :execrows
DELETE FROM idempotency_keys WHERE expires_at <= $1;

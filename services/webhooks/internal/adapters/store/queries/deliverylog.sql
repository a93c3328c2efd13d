-- name: CountDeliveries :one
-- Counts an endpoint's deliveries up to 10,001: a total of 10,001 means at least that many.
SELECT count(*) FROM (
    SELECT 1 FROM deliveries
    WHERE endpoint_id = $1 AND (sqlc.narg(status)::text IS NULL OR status = sqlc.narg(status))
    LIMIT 10001
) c;

-- name: ListDeliveries :many
SELECT sqlc.embed(d), m.type FROM deliveries d JOIN messages m ON m.id = d.message_id
WHERE d.endpoint_id = $1 AND (sqlc.narg(status)::text IS NULL OR d.status = sqlc.narg(status))
ORDER BY d.created_at DESC, d.id DESC LIMIT $2 OFFSET $3;

-- name: GetDelivery :one
SELECT sqlc.embed(d), m.type FROM deliveries d JOIN messages m ON m.id = d.message_id
WHERE d.id = $1 AND d.endpoint_id = $2;

-- name: ListAttempts :many
-- A delivery's last 50 attempts, in order.
SELECT a.* FROM (SELECT * FROM attempts WHERE delivery_id = $1 ORDER BY n DESC LIMIT 50) a ORDER BY a.n;

-- name: RetryDelivery :execrows
-- Hands a delivery back to the dispatcher for an attempt at once, its schedule restarting (a new
-- window from that attempt, counting the attempts after schedule_base); its attempts keep
-- their numbers.
UPDATE deliveries SET status = 'pending', next_attempt_at = $3, first_attempt_at = NULL, schedule_base = attempts, finished_at = NULL
WHERE id = $1 AND endpoint_id = $2 AND (leased_until IS NULL OR leased_until < $3);

-- name: RecoverDeliveries :execrows
-- Hands up to batch failed deliveries created since a time back to the dispatcher, as
-- RetryDelivery.
UPDATE deliveries SET status = 'pending', next_attempt_at = sqlc.arg(next_attempt_at), first_attempt_at = NULL, schedule_base = attempts, finished_at = NULL
WHERE id IN (
    SELECT f.id FROM deliveries f
    WHERE f.endpoint_id = sqlc.arg(endpoint_id) AND f.status = 'failed' AND f.created_at >= sqlc.arg(created_at)
    LIMIT sqlc.arg(batch)
);

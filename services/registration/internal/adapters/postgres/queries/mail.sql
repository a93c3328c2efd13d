-- name: InsertMail :exec
INSERT INTO mail_outbox (recipient, subject, body) VALUES ($1, $2, $3);

-- name: ClaimMail :many
-- Leases due messages for lease_seconds so that one worker sends each; a worker that dies
-- leaves them to be retried when the lease ends.
UPDATE mail_outbox SET attempts = attempts + 1,
    next_attempt_at = now() + make_interval(secs => sqlc.arg(lease_seconds)::float8)
WHERE id IN (
    SELECT id FROM mail_outbox WHERE next_attempt_at <= now()
    ORDER BY id LIMIT sqlc.arg(max_rows) FOR UPDATE SKIP LOCKED)
RETURNING id, recipient, subject, body, attempts;

-- name: DeleteMail :exec
DELETE FROM mail_outbox WHERE id = $1;

-- name: RetryMail :exec
UPDATE mail_outbox SET next_attempt_at = now() + make_interval(secs => sqlc.arg(after_seconds)::float8),
    last_error = sqlc.arg(last_error)
WHERE id = sqlc.arg(id);

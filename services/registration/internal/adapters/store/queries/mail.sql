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
RETURNING id, recipient, subject, body, attempts, revision;

-- name: DeleteMail :exec
-- Removes a sent mail unless it was brought up to date since it was claimed.
DELETE FROM mail_outbox WHERE id = $1 AND revision = $2;

-- name: RetryMail :exec
UPDATE mail_outbox SET next_attempt_at = now() + make_interval(secs => sqlc.arg(after_seconds)::float8),
    last_error = sqlc.arg(last_error)
WHERE id = sqlc.arg(id) AND revision = sqlc.arg(revision);

-- name: InsertMailOnce :execrows
-- Queues a mail; while one with the same dedupe key is still unsent (the worker deletes a
-- mail once sent), that one is brought up to date instead, or left as it is when the content
-- is the same.
INSERT INTO mail_outbox AS m (recipient, subject, body, dedupe_key) VALUES ($1, $2, $3, sqlc.arg(dedupe_key)::text)
ON CONFLICT (dedupe_key) WHERE dedupe_key IS NOT NULL DO UPDATE
    SET recipient = excluded.recipient, subject = excluded.subject, body = excluded.body, revision = m.revision + 1
    WHERE (m.recipient, m.subject, m.body) IS DISTINCT FROM (excluded.recipient, excluded.subject, excluded.body);

-- name: StartReceiptCooldown :execrows
-- Records a receipt mail to a recipient of an event unless the last one was queued after
-- since (the cooldown still runs): then nothing changes and no row is counted. Concurrent
-- calls wait on the row, so one of them starts the cooldown.
INSERT INTO receipt_mails AS m (event_id, livemode, recipient, queued_at) VALUES ($1, $2, $3, sqlc.arg(now)::timestamptz)
ON CONFLICT (event_id, livemode, recipient) DO UPDATE SET queued_at = excluded.queued_at
WHERE m.queued_at <= sqlc.arg(since)::timestamptz;

-- name: ReceiptCooldownStart :one
SELECT queued_at FROM receipt_mails WHERE event_id = $1 AND livemode = $2 AND recipient = $3;

-- name: InsertTestMail :exec
-- Keeps a mail test data caused instead of sending it.
INSERT INTO test_mail (id, organizer_id, recipient, subject, body, order_id, created_at)
VALUES ($1, $2, $3, $4, $5, $6, $7);

-- name: ListTestMail :many
SELECT id, recipient, subject, body, order_id, created_at FROM test_mail
WHERE organizer_id = $1
ORDER BY created_at DESC, id DESC
LIMIT sqlc.arg(max_rows) OFFSET sqlc.arg(skip);

-- name: CountTestMail :one
SELECT count(*) FROM test_mail WHERE organizer_id = $1;

-- name: PruneTestMail :execrows
DELETE FROM test_mail WHERE created_at < sqlc.arg(before)::timestamptz;

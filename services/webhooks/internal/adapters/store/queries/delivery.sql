-- name: LockClaimableEndpoints :many
-- The enabled endpoints, none of skip, that have due deliveries and had room for more when
-- this statement started (fewer than per_endpoint under a running lease), the oldest due
-- first, at most max_endpoints, each then locked for this transaction's claim; those another
-- claim holds are left out. The lock is advisory, so that recording an attempt (which locks
-- the endpoint's row) never keeps a claim from an endpoint.
WITH candidates AS MATERIALIZED (
    SELECT e.id FROM endpoints e
    CROSS JOIN LATERAL (
        SELECT min(d.next_attempt_at) AS at FROM deliveries d
        WHERE d.endpoint_id = e.id AND d.status = 'pending' AND d.next_attempt_at <= sqlc.arg(now)::timestamptz
          AND (d.leased_until IS NULL OR d.leased_until <= sqlc.arg(now)::timestamptz)
    ) oldest
    WHERE e.status = 'enabled' AND NOT (e.id = ANY(sqlc.arg(skip)::text[])) AND oldest.at IS NOT NULL
      AND (SELECT count(*) FROM deliveries f
           WHERE f.endpoint_id = e.id AND f.status = 'pending' AND f.leased_until > sqlc.arg(now)::timestamptz) < sqlc.arg(per_endpoint)::int
    ORDER BY oldest.at, e.id
    LIMIT sqlc.arg(max_endpoints)
)
SELECT id FROM candidates WHERE pg_try_advisory_xact_lock(hashtextextended('webhooks.claim:' || id, 0));

-- name: ClaimDeliveries :many
-- Leases the due deliveries of the endpoints this transaction locked, oldest due first, at
-- most max_jobs in all and per endpoint at most per_endpoint minus its deliveries under a
-- running lease, counted after the lock was taken, so that two claims never both fill an
-- endpoint's room; the deliveries another transaction holds are skipped.
WITH chosen AS (
    SELECT due.id
    FROM unnest(sqlc.arg(endpoint_ids)::text[]) AS e(id)
    CROSS JOIN LATERAL (
        SELECT count(*)::int AS n FROM deliveries f
        WHERE f.endpoint_id = e.id AND f.status = 'pending' AND f.leased_until > sqlc.arg(now)::timestamptz
    ) busy
    CROSS JOIN LATERAL (
        SELECT d.id, d.next_attempt_at FROM deliveries d
        WHERE d.endpoint_id = e.id AND d.status = 'pending' AND d.next_attempt_at <= sqlc.arg(now)::timestamptz
          AND (d.leased_until IS NULL OR d.leased_until <= sqlc.arg(now)::timestamptz)
        ORDER BY d.next_attempt_at, d.id
        LIMIT greatest(sqlc.arg(per_endpoint)::int - busy.n, 0)
        FOR NO KEY UPDATE OF d SKIP LOCKED
    ) due
    ORDER BY due.next_attempt_at, due.id
    LIMIT sqlc.arg(max_jobs)
), leased AS (
    UPDATE deliveries d SET leased_until = sqlc.arg(lease_until)::timestamptz
    FROM chosen WHERE d.id = chosen.id
    RETURNING d.id, d.endpoint_id, d.message_id, d.attempts, d.schedule_base, d.first_attempt_at, d.next_attempt_at
)
SELECT l.id, l.endpoint_id, e.url, l.message_id, m.body, l.attempts, l.schedule_base, l.first_attempt_at
FROM leased l JOIN endpoints e ON e.id = l.endpoint_id JOIN messages m ON m.id = l.message_id
ORDER BY l.next_attempt_at, l.id;

-- name: LiveSecrets :many
-- The secrets of the endpoints that sign at now, each endpoint's newest first.
SELECT endpoint_id, sealed FROM endpoint_secrets
WHERE endpoint_id = ANY(sqlc.arg(endpoint_ids)::text[]) AND (expires_at IS NULL OR expires_at > sqlc.arg(now)::timestamptz)
ORDER BY endpoint_id, created_at DESC;

-- name: LockEndpointFailingSince :one
-- Locks an endpoint for the recording of an attempt, and reads since when it fails.
SELECT failing_since FROM endpoints WHERE id = $1 FOR NO KEY UPDATE;

-- name: RecordDeliveryAttempt :execrows
-- Sets a delivery's state after its attempt n, if it is still pending after n-1 attempts.
UPDATE deliveries SET
    status = sqlc.arg(status),
    attempts = sqlc.arg(n),
    first_attempt_at = coalesce(first_attempt_at, sqlc.arg(started_at)::timestamptz),
    next_attempt_at = sqlc.narg(next_attempt_at),
    leased_until = NULL,
    last_status_code = sqlc.narg(status_code),
    last_latency_ms = sqlc.arg(latency_ms)::int,
    last_error = sqlc.narg(error),
    finished_at = sqlc.narg(finished_at)
WHERE id = sqlc.arg(id) AND status = 'pending' AND attempts = sqlc.arg(n)::int - 1;

-- name: InsertAttempt :exec
INSERT INTO attempts (delivery_id, n, started_at, status_code, latency_ms, error, response_excerpt)
VALUES ($1, $2, $3, $4, $5, $6, $7);

-- name: SetEndpointFailingSince :exec
UPDATE endpoints SET failing_since = sqlc.narg(failing_since)
WHERE id = sqlc.arg(id) AND failing_since IS DISTINCT FROM sqlc.narg(failing_since);

-- name: DisableFailedEndpoint :exec
-- Disables an endpoint for what its deliveries got (gone or failing).
UPDATE endpoints SET status = 'disabled', disabled_reason = sqlc.arg(reason)::text, disabled_at = sqlc.arg(now)::timestamptz, updated_at = sqlc.arg(now)::timestamptz
WHERE id = sqlc.arg(id) AND status = 'enabled';

-- name: FailPendingDeliveries :exec
-- Fails the pending deliveries of a disabled endpoint.
UPDATE deliveries SET status = 'failed', next_attempt_at = NULL, leased_until = NULL,
    last_error = 'endpoint disabled', finished_at = sqlc.arg(now)::timestamptz
WHERE endpoint_id = sqlc.arg(endpoint_id) AND status = 'pending';

-- name: DeliveryBacklog :one
-- The deliveries due at now that no lease holds, and when the oldest of them was due (now with
-- none).
SELECT count(*) AS due, coalesce(min(next_attempt_at), sqlc.arg(now))::timestamptz AS oldest_due FROM deliveries
WHERE status = 'pending' AND next_attempt_at <= sqlc.arg(now)::timestamptz AND (leased_until IS NULL OR leased_until <= sqlc.arg(now)::timestamptz);

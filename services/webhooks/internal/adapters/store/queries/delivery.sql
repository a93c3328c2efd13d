-- name: ClaimDeliveries :many
-- Leases the due deliveries, oldest due first, at most max_jobs in all and per endpoint at most
-- per_endpoint minus its deliveries under a running lease. The endpoints are locked (skipping
-- those another claim or a recording holds), so that two claims never both fill an endpoint's
-- room; the deliveries another transaction holds are skipped.
WITH chosen AS (
    SELECT due.id
    FROM endpoints e
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
    WHERE e.status = 'enabled' AND NOT (e.id = ANY(sqlc.arg(skip)::text[]))
    ORDER BY due.next_attempt_at, due.id
    LIMIT sqlc.arg(max_jobs)
    FOR NO KEY UPDATE OF e SKIP LOCKED
)
UPDATE deliveries d SET leased_until = sqlc.arg(lease_until)::timestamptz
FROM chosen, endpoints e, messages m
WHERE d.id = chosen.id AND e.id = d.endpoint_id AND m.id = d.message_id
RETURNING d.id, d.endpoint_id, e.url, d.message_id, m.body, d.attempts, d.first_attempt_at, d.leased_until;

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

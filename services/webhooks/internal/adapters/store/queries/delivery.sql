-- name: LockClaimableEndpoints :many
-- The enabled endpoints, none of skip, that have due deliveries and had room for more when
-- this statement started (fewer than per_endpoint under a running lease, and their
-- organization fewer than per_organization), at most max_endpoints, taken in turns: each
-- organization's endpoint due the longest, then each one's second, and so on, so that an
-- organization with an old backlog does not go before every other. Each is then claimed under
-- its organization's lock for this transaction; those another claim holds are left out. The
-- lock is advisory, so that recording an attempt (which may lock the endpoint's row) never
-- keeps a claim from an endpoint. The endpoints are found from their pending deliveries, one
-- index probe per endpoint that has some (a skip scan of deliveries_due_in_order), so a claim
-- costs neither the idle endpoints nor the size of a backlog.
WITH RECURSIVE pending AS (
    (SELECT d.endpoint_id FROM deliveries d WHERE d.status = 'pending' ORDER BY d.endpoint_id LIMIT 1)
    UNION ALL
    SELECT (SELECT d.endpoint_id FROM deliveries d WHERE d.status = 'pending' AND d.endpoint_id > p.endpoint_id
            ORDER BY d.endpoint_id LIMIT 1)
    FROM pending p WHERE p.endpoint_id IS NOT NULL
), candidates AS MATERIALIZED (
    SELECT e.id, e.organizer_id, oldest.at FROM pending p JOIN endpoints e ON e.id = p.endpoint_id
    CROSS JOIN LATERAL (
        SELECT min(d.next_attempt_at) AS at FROM deliveries d
        WHERE d.endpoint_id = e.id AND d.status = 'pending' AND d.next_attempt_at <= sqlc.arg(now)::timestamptz
          AND (d.leased_until IS NULL OR d.leased_until <= sqlc.arg(now)::timestamptz)
    ) oldest
    WHERE e.status = 'enabled' AND NOT (e.id = ANY(sqlc.arg(skip)::text[])) AND oldest.at IS NOT NULL
      AND (SELECT count(*) FROM deliveries f
           WHERE f.endpoint_id = e.id AND f.status = 'pending' AND f.leased_until > sqlc.arg(now)::timestamptz) < sqlc.arg(per_endpoint)::int
      AND (SELECT count(*) FROM deliveries f JOIN endpoints fe ON fe.id = f.endpoint_id
           WHERE fe.organizer_id = e.organizer_id AND f.status = 'pending' AND f.leased_until > sqlc.arg(now)::timestamptz) < sqlc.arg(per_organization)::int
), turns AS MATERIALIZED (
    SELECT c.id, c.organizer_id, c.at, row_number() OVER (PARTITION BY c.organizer_id ORDER BY c.at, c.id) AS turn
    FROM candidates c
    ORDER BY turn, c.at, c.id
    LIMIT sqlc.arg(max_endpoints)
)
SELECT t.id FROM turns t WHERE pg_try_advisory_xact_lock(hashtextextended('webhooks.claim:' || t.organizer_id, 0))
ORDER BY t.turn, t.at, t.id;

-- name: ClaimDeliveries :many
-- Leases the due deliveries of the endpoints this transaction locked, at most max_jobs in all,
-- per endpoint at most per_endpoint minus its deliveries under a running lease and per
-- organization at most per_organization minus its own, counted after the lock was taken, so
-- that two claims never both fill an endpoint's or an organization's room. The deliveries are
-- taken in turns as the endpoints are (each organization's due the longest first); those
-- another transaction holds are skipped.
WITH locked AS (
    SELECT e.id, e.organizer_id FROM endpoints e WHERE e.id = ANY(sqlc.arg(endpoint_ids)::text[])
), organizations AS (
    SELECT o.organizer_id, (
        SELECT count(*) FROM deliveries f JOIN endpoints fe ON fe.id = f.endpoint_id
        WHERE fe.organizer_id = o.organizer_id AND f.status = 'pending' AND f.leased_until > sqlc.arg(now)::timestamptz
    )::int AS busy
    FROM (SELECT DISTINCT organizer_id FROM locked) o
), due AS (
    SELECT l.organizer_id, d.id, d.next_attempt_at
    FROM locked l
    CROSS JOIN LATERAL (
        SELECT count(*)::int AS n FROM deliveries f
        WHERE f.endpoint_id = l.id AND f.status = 'pending' AND f.leased_until > sqlc.arg(now)::timestamptz
    ) busy
    CROSS JOIN LATERAL (
        SELECT d.id, d.next_attempt_at FROM deliveries d
        WHERE d.endpoint_id = l.id AND d.status = 'pending' AND d.next_attempt_at <= sqlc.arg(now)::timestamptz
          AND (d.leased_until IS NULL OR d.leased_until <= sqlc.arg(now)::timestamptz)
        ORDER BY d.next_attempt_at, d.id
        LIMIT greatest(sqlc.arg(per_endpoint)::int - busy.n, 0)
        FOR NO KEY UPDATE OF d SKIP LOCKED
    ) d
), chosen AS (
    SELECT t.id FROM (
        SELECT due.id, due.next_attempt_at, o.busy,
            row_number() OVER (PARTITION BY due.organizer_id ORDER BY due.next_attempt_at, due.id) AS turn
        FROM due JOIN organizations o ON o.organizer_id = due.organizer_id
    ) t
    WHERE t.turn <= sqlc.arg(per_organization)::int - t.busy
    ORDER BY t.turn, t.next_attempt_at, t.id
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
-- Sets a delivery's state after its attempt n and logs the attempt, if the delivery is still
-- pending after n-1 attempts; it counts the attempts logged (0 or 1).
WITH recorded AS (
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
    WHERE id = sqlc.arg(id) AND status = 'pending' AND attempts = sqlc.arg(n)::int - 1
    RETURNING id, attempts, last_status_code, last_latency_ms, coalesce(last_error, '') AS error
)
INSERT INTO attempts (delivery_id, n, started_at, status_code, latency_ms, error, response_excerpt)
SELECT r.id, r.attempts, sqlc.arg(started_at)::timestamptz AS started_at, r.last_status_code, r.last_latency_ms, r.error,
    sqlc.arg(response_excerpt)::text AS response_excerpt
FROM recorded r;

-- name: SetEndpointFailingSince :exec
UPDATE endpoints SET failing_since = sqlc.narg(failing_since)
WHERE id = sqlc.arg(id) AND failing_since IS DISTINCT FROM sqlc.narg(failing_since);

-- name: LockEndpointForDisable :exec
-- Waits for the transactions storing deliveries to the endpoint (FOR KEY SHARE), so that
-- FailPendingDeliveries after it sees them, and keeps new ones out until the disable commits.
SELECT 1 FROM endpoints WHERE id = $1 FOR UPDATE;

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

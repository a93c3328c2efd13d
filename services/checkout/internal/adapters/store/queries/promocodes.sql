-- name: LockPromocode :exec
-- Serialises the reservations of one event's promocode until the transaction ends.
SELECT pg_advisory_xact_lock(sqlc.arg(lock_id)::bigint);

-- name: PromocodeUses :one
-- The uses of an event's promocode at now in one mode: checkouts holding a use that are paid or
-- completed, or await payment with their hold not lapsed.
SELECT count(*)::bigint AS used FROM checkouts
WHERE event_id = sqlc.arg(event_id) AND promocode = sqlc.arg(code)::text AND promocode_state = 'RESERVED'
  AND livemode = sqlc.arg(livemode)
  AND (state IN ('PAID', 'COMPLETED') OR hold_expires_at > sqlc.arg(now)::timestamptz);

-- name: EnsurePromocodeFailures :exec
-- Makes the row of a subject to lock, with no failure counted and no block: its times are long
-- past for every request, whatever clock it read before it waited for the row.
INSERT INTO promocode_failures (subject, drained_at, blocked_until) VALUES ($1, 'epoch', 'epoch')
ON CONFLICT (subject) DO NOTHING;

-- name: LockPromocodeFailures :one
SELECT drained_at, blocked_until FROM promocode_failures WHERE subject = $1 FOR UPDATE;

-- name: SetPromocodeFailures :exec
UPDATE promocode_failures SET drained_at = $2, blocked_until = $3 WHERE subject = $1;

-- name: PrunePromocodeFailures :execrows
-- Forgets subjects whose failures are all forgiven and whose block ended.
DELETE FROM promocode_failures WHERE greatest(drained_at, blocked_until) < $1;

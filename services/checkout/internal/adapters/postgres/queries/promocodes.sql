-- name: LockPromocode :exec
-- Serialises the reservations of one event's promocode until the transaction ends.
SELECT pg_advisory_xact_lock(sqlc.arg(lock_id)::bigint);

-- name: PromocodeUses :one
-- The uses of an event's promocode at now: checkouts holding a use that are paid or completed,
-- or await payment with their hold not lapsed.
SELECT count(*)::bigint AS used FROM checkouts
WHERE event_id = sqlc.arg(event_id) AND promocode = sqlc.arg(code)::text AND promocode_state = 'RESERVED'
  AND (state IN ('PAID', 'COMPLETED') OR hold_expires_at > sqlc.arg(now)::timestamptz);

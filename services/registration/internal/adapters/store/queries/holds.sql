-- name: LockHoldSubject :exec
-- Serialises the holds of one subject (a client network or a purchaser e-mail in an event)
-- until the transaction ends, so that two concurrent holds cannot both fit under its cap; and
-- a hold with the release of its hold id, so that the one running second sees the first.
SELECT pg_advisory_xact_lock(sqlc.arg(lock_id)::bigint);

-- name: LiveHoldsByNetwork :many
-- The live holds (PENDING, not lapsed at now) of a client network in an event, with the
-- places each holds.
SELECT o.id, o.created_at, o.expires_at::timestamptz AS expires_at, count(r.id)::int AS places
FROM orders o
JOIN registrations r ON r.order_id = o.id AND r.cancelled_at IS NULL
WHERE o.event_id = sqlc.arg(event_id) AND o.livemode = sqlc.arg(livemode) AND o.client_network = sqlc.arg(client_network)::text
  AND o.status = 'PENDING' AND o.expires_at > sqlc.arg(now)::timestamptz
GROUP BY o.id;

-- name: LiveHoldsByEmail :many
-- LiveHoldsByNetwork for a purchaser e-mail (lower case).
SELECT o.id, o.created_at, o.expires_at::timestamptz AS expires_at, count(r.id)::int AS places
FROM orders o
JOIN registrations r ON r.order_id = o.id AND r.cancelled_at IS NULL
WHERE o.event_id = sqlc.arg(event_id) AND o.livemode = sqlc.arg(livemode) AND lower(o.purchaser_email) = sqlc.arg(email)::text
  AND o.status = 'PENDING' AND o.expires_at > sqlc.arg(now)::timestamptz
GROUP BY o.id;

-- name: InsertReleasedHold :exec
INSERT INTO released_holds (organizer_id, livemode, hold_id, released_at) VALUES ($1, $2, $3, $4)
ON CONFLICT (organizer_id, livemode, hold_id) DO NOTHING;

-- name: HoldReleased :one
SELECT EXISTS (SELECT 1 FROM released_holds WHERE organizer_id = $1 AND livemode = $2 AND hold_id = $3);

-- name: PruneReleasedHolds :execrows
DELETE FROM released_holds WHERE released_at < sqlc.arg(before)::timestamptz;

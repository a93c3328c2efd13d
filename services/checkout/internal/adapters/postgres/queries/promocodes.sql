-- name: PromocodeUses :one
SELECT COALESCE((SELECT used FROM promocode_uses WHERE event_id = $1 AND code = $2), 0)::bigint AS used;

-- name: ReservePromocode :execrows
-- Counts one redemption unless the maximum (NULL: none) is reached, atomically.
INSERT INTO promocode_uses AS u (event_id, code, used) VALUES ($1, $2, 1)
ON CONFLICT (event_id, code) DO UPDATE SET used = u.used + 1
WHERE sqlc.narg(max_uses)::bigint IS NULL OR u.used < sqlc.narg(max_uses)::bigint;

-- name: CountPromocode :exec
-- Counts a redemption regardless of the maximum: a payment arrived for a released reservation.
INSERT INTO promocode_uses AS u (event_id, code, used) VALUES ($1, $2, 1)
ON CONFLICT (event_id, code) DO UPDATE SET used = u.used + 1;

-- name: ReleasePromocode :exec
UPDATE promocode_uses SET used = used - 1 WHERE event_id = $1 AND code = $2 AND used > 0;

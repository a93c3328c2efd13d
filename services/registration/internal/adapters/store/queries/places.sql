-- name: TakePlaces :one
-- Takes places atomically: the category's row is created on first use; confirmed + held never
-- exceed the quota (NULL: unlimited). No row comes back when the places do not fit.
INSERT INTO places AS p (category_id, event_id, confirmed, held, quota, version)
SELECT sqlc.arg(category_id)::text, sqlc.arg(event_id)::text, sqlc.arg(confirmed)::int, sqlc.arg(held)::int, sqlc.narg(quota)::int, 1
WHERE sqlc.narg(quota)::int IS NULL OR sqlc.arg(confirmed)::int + sqlc.arg(held)::int <= sqlc.narg(quota)::int
ON CONFLICT (category_id) DO UPDATE
    SET confirmed = p.confirmed + excluded.confirmed, held = p.held + excluded.held,
        quota = excluded.quota, version = p.version + 1
    WHERE sqlc.narg(quota)::int IS NULL
       OR p.confirmed + p.held + excluded.confirmed + excluded.held <= sqlc.narg(quota)::int
RETURNING category_id, event_id, confirmed, held, version;

-- name: ShiftPlaces :one
-- Moves places between held and confirmed or frees them (deltas may be negative), unchecked.
INSERT INTO places AS p (category_id, event_id, confirmed, held, version)
VALUES (sqlc.arg(category_id)::text, sqlc.arg(event_id)::text, greatest(sqlc.arg(confirmed)::int, 0), greatest(sqlc.arg(held)::int, 0), 1)
ON CONFLICT (category_id) DO UPDATE
    SET confirmed = p.confirmed + sqlc.arg(confirmed)::int, held = p.held + sqlc.arg(held)::int, version = p.version + 1
RETURNING category_id, event_id, confirmed, held, version;

-- name: GetPlaces :one
SELECT * FROM places WHERE category_id = $1;

-- name: RetakePlaces :one
-- Confirms places again for a late payment, bounded by the last quota the catalog told.
UPDATE places SET confirmed = confirmed + sqlc.arg(confirmed)::int, version = version + 1
WHERE category_id = sqlc.arg(category_id)
  AND (quota IS NULL OR confirmed + held + sqlc.arg(confirmed)::int <= quota)
RETURNING category_id, event_id, confirmed, held, version;

-- name: GetPlacesMany :many
SELECT * FROM places WHERE category_id = ANY(sqlc.arg(category_ids)::text[]);

-- name: TakePlacesBatch :batchone
-- TakePlaces for several categories in one round trip (the combiner).
INSERT INTO places AS p (category_id, event_id, confirmed, held, quota, version)
SELECT sqlc.arg(category_id)::text, sqlc.arg(event_id)::text, sqlc.arg(confirmed)::int, sqlc.arg(held)::int, sqlc.narg(quota)::int, 1
WHERE sqlc.narg(quota)::int IS NULL OR sqlc.arg(confirmed)::int + sqlc.arg(held)::int <= sqlc.narg(quota)::int
ON CONFLICT (category_id) DO UPDATE
    SET confirmed = p.confirmed + excluded.confirmed, held = p.held + excluded.held,
        quota = excluded.quota, version = p.version + 1
    WHERE sqlc.narg(quota)::int IS NULL
       OR p.confirmed + p.held + excluded.confirmed + excluded.held <= sqlc.narg(quota)::int
RETURNING category_id, event_id, confirmed, held, version;

-- The ledger has one row per category and mode: test purchases count apart from live ones.

-- name: TakePlaces :one
-- Takes places atomically: the category's row is created on first use; confirmed + held never
-- exceed the quota (NULL: unlimited). No row comes back when the places do not fit.
INSERT INTO places AS p (category_id, livemode, event_id, confirmed, held, quota, version)
SELECT sqlc.arg(category_id)::text, sqlc.arg(livemode)::boolean, sqlc.arg(event_id)::text, sqlc.arg(confirmed)::int, sqlc.arg(held)::int, sqlc.narg(quota)::int, 1
WHERE sqlc.narg(quota)::int IS NULL OR sqlc.arg(confirmed)::int + sqlc.arg(held)::int <= sqlc.narg(quota)::int
ON CONFLICT (category_id, livemode) DO UPDATE
    SET confirmed = p.confirmed + excluded.confirmed, held = p.held + excluded.held,
        quota = excluded.quota, version = p.version + 1
    WHERE sqlc.narg(quota)::int IS NULL
       OR p.confirmed + p.held + excluded.confirmed + excluded.held <= sqlc.narg(quota)::int
RETURNING category_id, event_id, confirmed, held, version;

-- name: ShiftPlaces :one
-- Moves places between held and confirmed or frees them (deltas may be negative), unchecked.
INSERT INTO places AS p (category_id, livemode, event_id, confirmed, held, version)
VALUES (sqlc.arg(category_id)::text, sqlc.arg(livemode)::boolean, sqlc.arg(event_id)::text, greatest(sqlc.arg(confirmed)::int, 0), greatest(sqlc.arg(held)::int, 0), 1)
ON CONFLICT (category_id, livemode) DO UPDATE
    SET confirmed = p.confirmed + sqlc.arg(confirmed)::int, held = p.held + sqlc.arg(held)::int, version = p.version + 1
RETURNING category_id, event_id, confirmed, held, version;

-- name: GetPlaces :one
SELECT * FROM places WHERE category_id = $1 AND livemode = $2;

-- name: RetakePlaces :one
-- Confirms places again for a late payment, bounded by the last quota the catalog told.
UPDATE places SET confirmed = confirmed + sqlc.arg(confirmed)::int, version = version + 1
WHERE category_id = sqlc.arg(category_id) AND livemode = sqlc.arg(livemode)
  AND (quota IS NULL OR confirmed + held + sqlc.arg(confirmed)::int <= quota)
RETURNING category_id, event_id, confirmed, held, version;

-- name: GetPlacesMany :many
-- The rows of keys, a JSON array of {category_id, livemode}.
SELECT p.* FROM places p
JOIN json_to_recordset(sqlc.arg(keys)::json) AS k (category_id text, livemode boolean)
  ON k.category_id = p.category_id AND k.livemode = p.livemode;

-- name: TakePlacesMany :exec
-- Takes the places of several categories in one statement (the create combiner): takes is a
-- JSON array of {category_id, livemode, event_id, confirmed, held, quota}, one per category
-- and mode. Rows are locked in category id order. The statement takes whatever it is given:
-- when a category would pass its quota, the places_within_quota constraint fails it, and with
-- it the whole transaction.
INSERT INTO places AS p (category_id, livemode, event_id, confirmed, held, quota, version)
SELECT t.category_id, t.livemode, t.event_id, t.confirmed, t.held, t.quota, 1
FROM json_to_recordset(sqlc.arg(takes)::json) AS t (category_id text, livemode boolean, event_id text, confirmed int, held int, quota int)
ORDER BY t.category_id, t.livemode
ON CONFLICT (category_id, livemode) DO UPDATE
    SET confirmed = p.confirmed + excluded.confirmed, held = p.held + excluded.held,
        quota = excluded.quota, version = p.version + 1;

-- name: AnnouncePlaces :exec
-- Writes a podium.registration.places.changed.v2 message per event and mode to the outbox:
-- the counts of the given categories (keys, a JSON array of {category_id, livemode}) as the
-- transaction leaves them (it changed their rows, so it holds them locked). messages is a
-- JSON array of {event_id, livemode, headers}, the outbox headers of each message
-- (outbox.Prepare).
INSERT INTO outbox (topic, key, payload, headers)
SELECT sqlc.arg(topic)::text, p.event_id,
       convert_to(json_build_object(
           'eventId', p.event_id,
           'livemode', p.livemode,
           'categories', json_agg(json_build_object(
               'categoryId', p.category_id, 'confirmed', p.confirmed, 'held', p.held, 'version', p.version)
               ORDER BY p.category_id),
           'occurredAt', sqlc.arg(occurred_at)::text)::text, 'UTF8'),
       m.headers
FROM places p
JOIN json_to_recordset(sqlc.arg(keys)::json) AS k (category_id text, livemode boolean)
  ON k.category_id = p.category_id AND k.livemode = p.livemode
JOIN json_to_recordset(sqlc.arg(messages)::json) AS m (event_id text, livemode boolean, headers jsonb)
  ON m.event_id = p.event_id AND m.livemode = p.livemode
GROUP BY p.event_id, p.livemode, m.headers;

-- name: ApplyPlaces :execrows
-- Keeps the counts of the highest version seen per (category, mode), for every category of a
-- message in one statement (categories: a JSON array of {category_id, confirmed, held, version}): an
-- older or repeated version changes nothing (no row).
INSERT INTO category_places (category_id, livemode, event_id, confirmed, held, version, updated_at)
SELECT c.category_id, sqlc.arg(livemode)::boolean, sqlc.arg(event_id)::text, c.confirmed, c.held, c.version, sqlc.arg(updated_at)::timestamptz
FROM json_to_recordset(sqlc.arg(categories)::json) AS c (category_id text, confirmed int, held int, version bigint)
ORDER BY c.category_id
ON CONFLICT (category_id, livemode) DO UPDATE
SET event_id = EXCLUDED.event_id, confirmed = EXCLUDED.confirmed, held = EXCLUDED.held,
    version = EXCLUDED.version, updated_at = EXCLUDED.updated_at
WHERE category_places.version < EXCLUDED.version;

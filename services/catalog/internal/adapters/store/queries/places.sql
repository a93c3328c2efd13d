-- name: ApplyPlaces :execrows
-- Keeps the counts of the highest version seen per category: an older or repeated version
-- changes nothing (0 rows).
INSERT INTO category_places (category_id, event_id, confirmed, held, version, updated_at)
VALUES ($1, $2, $3, $4, $5, $6)
ON CONFLICT (category_id) DO UPDATE
SET event_id = EXCLUDED.event_id, confirmed = EXCLUDED.confirmed, held = EXCLUDED.held,
    version = EXCLUDED.version, updated_at = EXCLUDED.updated_at
WHERE category_places.version < EXCLUDED.version;

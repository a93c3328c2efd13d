-- name: LockEventKey :exec
-- Serialises imports of one (organizer, external id), including the first one.
SELECT pg_advisory_xact_lock(hashtextextended(sqlc.arg(organizer_id)::text || '/' || sqlc.arg(external_id)::text, 0));

-- name: GetEventByExternalID :one
SELECT id, organizer_id, external_id, name, description, internal_notes, status, private,
       start_date, end_date, timezone, currency, venue_name, venue_address, venue_city,
       venue_region, venue_country, preview_token, version, fingerprint, created_at, updated_at,
       transfers_until
FROM events
WHERE organizer_id = $1 AND external_id = $2;

-- name: GetEvent :one
-- An organizer's event.
SELECT id, organizer_id, external_id, name, description, internal_notes, status, private,
       start_date, end_date, timezone, currency, venue_name, venue_address, venue_city,
       venue_region, venue_country, preview_token, version, fingerprint, created_at, updated_at,
       transfers_until
FROM events
WHERE id = sqlc.arg(id) AND organizer_id = sqlc.arg(organizer_id);

-- name: GetEventIDByCategory :one
-- The id of the organizer's event a category belongs to.
SELECT e.id
FROM categories c
JOIN events e ON e.id = c.event_id
WHERE c.id = sqlc.arg(category_id) AND e.organizer_id = sqlc.arg(organizer_id);

-- name: InsertEvent :exec
INSERT INTO events (
    id, organizer_id, external_id, name, description, internal_notes, status, private,
    start_date, end_date, timezone, currency, venue_name, venue_address, venue_city,
    venue_region, venue_country, preview_token, version, fingerprint, created_at, updated_at,
    transfers_until
) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23);

-- name: UpdateEvent :exec
UPDATE events SET
    name = $2, description = $3, internal_notes = $4, status = $5, private = $6,
    start_date = $7, end_date = $8, timezone = $9, currency = $10, venue_name = $11,
    venue_address = $12, venue_city = $13, venue_region = $14, venue_country = $15,
    version = $16, fingerprint = $17, updated_at = $18, transfers_until = $19
WHERE id = $1;

-- name: SearchEvents :many
-- A page of an organizer's events, by start date then id. public_only keeps non-private
-- events, published ones unless unpublished is set (a test key's browser search); search (with
-- LIKE wildcards escaped) is matched, folded, anywhere in the folded search text.
SELECT id, organizer_id, external_id, name, description, internal_notes, status, private,
       start_date, end_date, timezone, currency, venue_name, venue_address, venue_city,
       venue_region, venue_country, preview_token, version, fingerprint, created_at, updated_at,
       transfers_until
FROM events
WHERE organizer_id = sqlc.arg(organizer_id)
  AND (NOT sqlc.arg(public_only)::boolean OR (NOT private AND (status = 'PUBLISHED' OR sqlc.arg(unpublished)::boolean)))
  AND (sqlc.arg(status)::text = '' OR status = sqlc.arg(status))
  AND (sqlc.arg(search)::text = '' OR search_text LIKE '%' || catalog_fold(sqlc.arg(search)) || '%')
ORDER BY start_date, id
LIMIT sqlc.arg(row_limit)::integer OFFSET sqlc.arg(row_offset)::bigint;

-- name: CountEvents :one
SELECT count(*)
FROM events
WHERE organizer_id = sqlc.arg(organizer_id)
  AND (NOT sqlc.arg(public_only)::boolean OR (NOT private AND (status = 'PUBLISHED' OR sqlc.arg(unpublished)::boolean)))
  AND (sqlc.arg(status)::text = '' OR status = sqlc.arg(status))
  AND (sqlc.arg(search)::text = '' OR search_text LIKE '%' || catalog_fold(sqlc.arg(search)) || '%');

-- name: LockTestEndpoints :many
-- An organization's test endpoints, locked against a fan-out, a ping or a retry adding to them.
SELECT id FROM endpoints WHERE organizer_id = $1 AND NOT livemode ORDER BY id FOR UPDATE;

-- name: DeleteTestDeliveries :many
-- Deletes the deliveries (their attempts with them) of test endpoints of an organization and
-- returns their messages.
DELETE FROM deliveries d USING endpoints e
WHERE d.endpoint_id = e.id AND e.id = ANY(sqlc.arg(endpoint_ids)::text[])
  AND e.organizer_id = sqlc.arg(organizer_id) AND NOT e.livemode
RETURNING d.message_id;

-- name: DeleteTestMessages :exec
-- Deletes test messages of an organization that no delivery refers to any more.
DELETE FROM messages m
WHERE m.id = ANY(sqlc.arg(ids)::text[]) AND m.organizer_id = sqlc.arg(organizer_id) AND NOT m.livemode
  AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.message_id = m.id);

-- name: DeleteTestEndpoints :execrows
-- Deletes test endpoints of an organization (their secrets with them).
DELETE FROM endpoints
WHERE id = ANY(sqlc.arg(ids)::text[]) AND organizer_id = sqlc.arg(organizer_id) AND NOT livemode;

-- name: InsertKey :exec
INSERT INTO api_keys (
    id, organizer_id, type, mode, name, key_hash, last4, scopes, allowed_origins, created_at, expires_at
) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11);

-- name: ListKeys :many
-- An empty mode lists the keys of both modes.
SELECT *
FROM api_keys
WHERE organizer_id = sqlc.arg(organizer_id) AND (sqlc.arg(mode)::text = '' OR mode = sqlc.arg(mode))
ORDER BY created_at DESC, id DESC
LIMIT sqlc.arg(lim) OFFSET sqlc.arg(off);

-- name: CountKeys :one
SELECT count(*) FROM api_keys
WHERE organizer_id = sqlc.arg(organizer_id) AND (sqlc.arg(mode)::text = '' OR mode = sqlc.arg(mode));

-- name: GetKeyForUpdate :one
SELECT *
FROM api_keys
WHERE id = $1
FOR UPDATE;

-- name: SetKeyRevoked :exec
UPDATE api_keys SET revoked_at = sqlc.arg(revoked_at)::timestamptz WHERE id = sqlc.arg(id);

-- name: GetKeyByHash :one
SELECT *
FROM api_keys
WHERE key_hash = $1;

-- name: RecordKeyUses :exec
UPDATE api_keys AS k
SET last_used_at = GREATEST(k.last_used_at, u.used_at)
FROM (
    -- Arrays of one length unnested side by side in a select list pair up row by row.
    SELECT unnest(sqlc.arg(ids)::text[]) AS id, unnest(sqlc.arg(used_at)::timestamptz[]) AS used_at
) AS u
WHERE k.id = u.id;

-- name: OriginAllowed :one
SELECT EXISTS (
    SELECT 1 FROM api_keys
    WHERE type = 'publishable'
      AND revoked_at IS NULL
      AND (expires_at IS NULL OR expires_at > sqlc.arg(at)::timestamptz)
      AND allowed_origins @> ARRAY[sqlc.arg(origin)::text]
);

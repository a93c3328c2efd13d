-- name: InsertOrganizer :exec
INSERT INTO organizers (id, name, created_at) VALUES ($1, $2, $3);

-- name: GetOrganizer :one
SELECT id, name, created_at FROM organizers WHERE id = $1;

-- name: ListOrganizers :many
SELECT id, name, created_at FROM organizers
ORDER BY created_at DESC, id DESC
LIMIT $1 OFFSET $2;

-- name: CountOrganizers :one
SELECT count(*) FROM organizers;

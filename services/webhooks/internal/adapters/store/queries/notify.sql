-- name: EndpointsToNotify :many
-- The endpoints disabled for failing whose organization was not told yet, oldest first.
SELECT id FROM endpoints
WHERE disabled_reason = 'failing' AND notified_at IS NULL
ORDER BY disabled_at, id LIMIT $1;

-- name: LockEndpointToNotify :one
-- The endpoint when it still waits for its notice, locked until the caller's transaction ends;
-- none when another instance holds it.
SELECT * FROM endpoints
WHERE id = $1 AND disabled_reason = 'failing' AND notified_at IS NULL
FOR UPDATE SKIP LOCKED;

-- name: MarkNotified :exec
UPDATE endpoints SET notified_at = $2 WHERE id = $1;

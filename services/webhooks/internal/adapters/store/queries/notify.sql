-- name: ClaimEndpointToNotify :one
-- One endpoint disabled for failing whose organization was not told yet, locked until the
-- caller's transaction ends.
SELECT * FROM endpoints
WHERE disabled_reason = 'failing' AND notified_at IS NULL
ORDER BY disabled_at LIMIT 1 FOR UPDATE SKIP LOCKED;

-- name: MarkNotified :exec
UPDATE endpoints SET notified_at = $2 WHERE id = $1;

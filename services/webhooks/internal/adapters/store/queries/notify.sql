-- name: EndpointsToNotify :many
-- The endpoints disabled for failing whose organization was not told yet and that no notifier
-- holds or waits to retry at now, oldest first.
SELECT id FROM endpoints
WHERE disabled_reason = 'failing' AND notified_at IS NULL AND (notifying_until IS NULL OR notifying_until <= sqlc.arg(now)::timestamptz)
ORDER BY disabled_at, id LIMIT sqlc.arg(lim);

-- name: LeaseEndpointToNotify :one
-- Takes an endpoint to tell about until lease_until, when it still waits for its notice and no
-- other notifier holds it, counting the round.
UPDATE endpoints SET notifying_until = sqlc.arg(lease_until)::timestamptz, notice_attempts = notice_attempts + 1
WHERE id = sqlc.arg(id) AND disabled_reason = 'failing' AND notified_at IS NULL
  AND (notifying_until IS NULL OR notifying_until <= sqlc.arg(now)::timestamptz)
RETURNING *;

-- name: NoticesSent :many
-- Who was mailed about an endpoint's disabling at disabled_at.
SELECT email FROM endpoint_notices WHERE endpoint_id = $1 AND disabled_at = $2;

-- name: RecordNoticeSent :exec
INSERT INTO endpoint_notices (endpoint_id, disabled_at, email, sent_at) VALUES ($1, $2, $3, $4)
ON CONFLICT DO NOTHING;

-- name: MarkNotified :exec
UPDATE endpoints SET notified_at = $2, notifying_until = NULL, notice_attempts = 0 WHERE id = $1;

-- name: RetryNoticeAt :exec
-- Leaves a notice that failed for a later round, at retry_at.
UPDATE endpoints SET notifying_until = sqlc.arg(retry_at)::timestamptz WHERE id = sqlc.arg(id) AND notified_at IS NULL;

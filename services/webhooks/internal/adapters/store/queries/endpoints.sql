-- name: LockOrganizerEndpoints :exec
-- Serialises the creates of one organization, so that the endpoint limit holds.
SELECT pg_advisory_xact_lock(hashtextextended('webhooks.endpoints:' || sqlc.arg(organizer_id)::text, 0));

-- name: CountEndpoints :one
SELECT count(*) FROM endpoints WHERE organizer_id = $1 AND livemode = $2;

-- name: InsertEndpoint :exec
INSERT INTO endpoints (id, organizer_id, livemode, url, description, event_types, status, created_at, updated_at)
VALUES ($1, $2, $3, $4, $5, $6, 'enabled', $7, $7);

-- name: InsertSecret :exec
INSERT INTO endpoint_secrets (endpoint_id, sealed, created_at) VALUES ($1, $2, $3);

-- name: ExpireSecrets :exec
-- Rotates an endpoint's secrets out: a secret already being replaced stops signing at now, the
-- current one at expires_at.
UPDATE endpoint_secrets SET expires_at = CASE WHEN expires_at IS NULL THEN sqlc.arg(expires_at)::timestamptz ELSE sqlc.arg(now)::timestamptz END
WHERE endpoint_id = sqlc.arg(endpoint_id) AND (expires_at IS NULL OR expires_at > sqlc.arg(now)::timestamptz);

-- name: DeleteExpiredSecrets :execrows
DELETE FROM endpoint_secrets WHERE expires_at < $1;

-- name: GetEndpoint :one
SELECT * FROM endpoints WHERE id = $1 AND organizer_id = $2 AND livemode = $3;

-- name: GetEndpointForUpdate :one
SELECT * FROM endpoints WHERE id = $1 AND organizer_id = $2 AND livemode = $3 FOR UPDATE;

-- name: ListEndpoints :many
SELECT * FROM endpoints WHERE organizer_id = $1 AND livemode = $2
ORDER BY created_at DESC, id DESC LIMIT $3 OFFSET $4;

-- name: UpdateEndpoint :exec
UPDATE endpoints SET url = $2, description = $3, event_types = $4, status = $5, disabled_reason = $6,
    disabled_at = $7, failing_since = $8, notified_at = $9, updated_at = $10
WHERE id = $1;

-- name: DeleteEndpoint :execrows
DELETE FROM endpoints WHERE id = $1 AND organizer_id = $2 AND livemode = $3;

-- name: LockEndpointStatus :one
-- An endpoint's status, its row key-share-locked until the transaction ends: a disable (FOR
-- UPDATE) waits for the deliveries this transaction makes pending, and then fails them.
SELECT status FROM endpoints WHERE id = $1 AND organizer_id = $2 AND livemode = $3 FOR KEY SHARE;

-- name: DeleteEndpointDeliveries :execrows
-- Deletes up to batch deliveries (their attempts with them) of an endpoint of an organizer,
-- ahead of the endpoint's own delete.
DELETE FROM deliveries WHERE id IN (
    SELECT d.id FROM deliveries d JOIN endpoints e ON e.id = d.endpoint_id
    WHERE d.endpoint_id = sqlc.arg(id) AND e.organizer_id = sqlc.arg(organizer_id) AND e.livemode = sqlc.arg(livemode)
    LIMIT sqlc.arg(batch)
);

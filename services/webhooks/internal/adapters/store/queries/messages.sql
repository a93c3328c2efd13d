-- name: NextSequence :one
INSERT INTO object_sequences (organizer_id, object_id, seq) VALUES ($1, $2, 1)
ON CONFLICT (organizer_id, object_id) DO UPDATE SET seq = object_sequences.seq + 1
RETURNING seq;

-- name: InsertMessage :execrows
-- Stores a message; none when one of its source is stored already (an event redelivered after
-- the inbox forgot it, within the messages' retention).
INSERT INTO messages (id, organizer_id, livemode, type, object_id, sequence, occurred_at, body, source_id, created_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
ON CONFLICT (source_id) DO NOTHING;

-- name: SubscribedEndpoints :many
-- The enabled endpoints of an organization and mode that receive a type; FOR SHARE keeps a
-- concurrent disable from missing the deliveries inserted here.
SELECT id FROM endpoints
WHERE organizer_id = $1 AND livemode = $2 AND status = 'enabled' AND sqlc.arg(type)::text = ANY (event_types)
ORDER BY id FOR SHARE;

-- name: InsertDeliveries :exec
INSERT INTO deliveries (id, endpoint_id, message_id, status, next_attempt_at, created_at)
SELECT unnest(sqlc.arg(ids)::text[]), unnest(sqlc.arg(endpoint_ids)::text[]), sqlc.arg(message_id), 'pending', sqlc.arg(now), sqlc.arg(now);

-- name: DeleteOldMessages :execrows
-- A message still being delivered (recovered near the end of its retention) waits for the end.
DELETE FROM messages WHERE id IN (
    SELECT old.id FROM messages old
    WHERE old.created_at < sqlc.arg(before)
      AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.message_id = old.id AND d.status = 'pending')
    ORDER BY old.created_at LIMIT sqlc.arg(batch)
);

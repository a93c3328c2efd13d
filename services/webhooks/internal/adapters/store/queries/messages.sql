-- name: TakeSequences :many
-- Takes the next counts[i] sequence numbers of each object i, and returns the last taken.
INSERT INTO object_sequences (organizer_id, object_id, seq)
SELECT unnest(sqlc.arg(organizer_ids)::text[]), unnest(sqlc.arg(object_ids)::text[]), unnest(sqlc.arg(counts)::bigint[])
ON CONFLICT (organizer_id, object_id) DO UPDATE SET seq = object_sequences.seq + excluded.seq
RETURNING organizer_id, object_id, seq;

-- name: InsertMessages :many
-- Stores messages, and returns the ids of those stored: none of a source stored already (an
-- event redelivered after the inbox forgot it, within the messages' retention).
INSERT INTO messages (id, organizer_id, livemode, type, object_id, sequence, occurred_at, body, source_id, created_at)
SELECT unnest(sqlc.arg(ids)::text[]), unnest(sqlc.arg(organizer_ids)::text[]), unnest(sqlc.arg(livemodes)::boolean[]),
    unnest(sqlc.arg(types)::text[]), unnest(sqlc.arg(object_ids)::text[]), unnest(sqlc.arg(sequences)::bigint[]),
    unnest(sqlc.arg(occurred_ats)::timestamptz[]), unnest(sqlc.arg(bodies)::bytea[]), nullif(unnest(sqlc.arg(source_ids)::text[]), ''),
    sqlc.arg(created_at)::timestamptz
ON CONFLICT (source_id) DO NOTHING
RETURNING id;

-- name: EnabledEndpointsOf :many
-- The enabled endpoints of organizations. FOR KEY SHARE keeps a disable or a delete, each of
-- which locks the row FOR UPDATE, from missing the deliveries inserted here, and does not wait
-- for the recording of an attempt (FOR NO KEY UPDATE).
SELECT id, organizer_id, livemode, event_types FROM endpoints
WHERE organizer_id = ANY(sqlc.arg(organizer_ids)::text[]) AND status = 'enabled'
ORDER BY id FOR KEY SHARE;

-- name: InsertDeliveries :exec
INSERT INTO deliveries (id, endpoint_id, message_id, status, next_attempt_at, created_at)
SELECT unnest(sqlc.arg(ids)::text[]), unnest(sqlc.arg(endpoint_ids)::text[]), unnest(sqlc.arg(message_ids)::text[]),
    'pending', sqlc.arg(now), sqlc.arg(now);

-- name: DeleteOldMessages :execrows
-- A message still being delivered (recovered near the end of its retention) waits for the end.
DELETE FROM messages WHERE id IN (
    SELECT old.id FROM messages old
    WHERE old.created_at < sqlc.arg(before)
      AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.message_id = old.id AND d.status = 'pending')
    ORDER BY old.created_at LIMIT sqlc.arg(batch)
);

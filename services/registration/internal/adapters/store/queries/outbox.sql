-- name: EnqueueEvents :exec
-- Writes outbox messages in one statement, in their order: messages is a JSON array of
-- {topic, key, payload, headers}, payload the event's data, headers those outbox.Prepare gives.
INSERT INTO outbox (topic, key, payload, headers)
SELECT m.msg->>'topic', m.msg->>'key', convert_to((m.msg->'payload')::text, 'UTF8'), (m.msg->'headers')::jsonb
FROM json_array_elements(sqlc.arg(messages)::json) WITH ORDINALITY AS m (msg, n)
ORDER BY m.n;

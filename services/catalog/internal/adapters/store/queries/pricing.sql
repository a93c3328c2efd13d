-- name: LockEventPricing :exec
-- Serialises the changes of one event's pricing (places applied, imports), so that each
-- compares its pricing before and after with no other change in between.
SELECT pg_advisory_xact_lock(sqlc.arg(lock_id)::bigint);

-- name: TryLockXact :one
-- Takes a transaction-scoped advisory lock unless another transaction holds it.
SELECT pg_try_advisory_xact_lock(sqlc.arg(lock_id)::bigint);

-- name: GetEventByID :one
-- An event by id, whoever its organizer: for the catalog's own workers, never for a caller.
SELECT id, organizer_id, external_id, name, description, internal_notes, status, private,
       start_date, end_date, timezone, currency, venue_name, venue_address, venue_city,
       venue_region, venue_country, preview_token, version, fingerprint, created_at, updated_at,
       transfers_until
FROM events
WHERE id = $1;

-- name: TierSwitchMark :one
SELECT announced_to FROM tier_switch_mark;

-- name: SetTierSwitchMark :exec
INSERT INTO tier_switch_mark (announced_to) VALUES ($1)
ON CONFLICT (id) DO UPDATE SET announced_to = EXCLUDED.announced_to;

-- name: EventsWithTierDatesBetween :many
-- The events with a price tier starting or ending on a date from first to last (inclusive).
SELECT DISTINCT event_id
FROM price_tiers
WHERE from_date BETWEEN sqlc.arg(first)::date AND sqlc.arg(last)::date
   OR until_date BETWEEN sqlc.arg(first)::date AND sqlc.arg(last)::date
ORDER BY event_id;

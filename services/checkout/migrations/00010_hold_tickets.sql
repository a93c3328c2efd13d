-- +goose NO TRANSACTION
-- +goose Up
-- The tickets of a checkout's hold, as registration answered it: one array of ticket ids per
-- registration, in the order of the quote's registrations, so that a refund naming tickets
-- finds their order and returns each ticket's share of what its registration cost. NULL for
-- checkouts held before. The index is built without blocking writes.
SET lock_timeout = '5s';
ALTER TABLE checkouts ADD COLUMN IF NOT EXISTS hold_tickets jsonb;
RESET lock_timeout;
DROP INDEX CONCURRENTLY IF EXISTS checkouts_hold_tickets;
CREATE INDEX CONCURRENTLY checkouts_hold_tickets ON checkouts USING gin (hold_tickets jsonb_path_ops) WHERE hold_tickets IS NOT NULL;

-- +goose Down
DROP INDEX CONCURRENTLY IF EXISTS checkouts_hold_tickets;
ALTER TABLE checkouts DROP COLUMN IF EXISTS hold_tickets;

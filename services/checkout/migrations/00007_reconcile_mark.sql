-- +goose NO TRANSACTION
-- +goose Up
-- Reconciliation lists Stripe's Checkout Sessions from this creation time on: every session
-- created before it has an outcome checkout applied (or is no checkout's), but for those
-- awaiting a delayed payment, whose checkouts (PROCESSING, found by the index) it reads one by
-- one. Each statement can run again; the index is built without blocking writes.
SET lock_timeout = '5s';
CREATE TABLE IF NOT EXISTS reconcile_mark (
    id            boolean     PRIMARY KEY DEFAULT true CHECK (id),
    sessions_from timestamptz NOT NULL
);
DROP INDEX CONCURRENTLY IF EXISTS checkouts_processing;
CREATE INDEX CONCURRENTLY checkouts_processing ON checkouts (updated_at) WHERE state = 'PROCESSING';
RESET lock_timeout;

-- +goose Down
DROP INDEX CONCURRENTLY IF EXISTS checkouts_processing;
DROP TABLE IF EXISTS reconcile_mark;

-- +goose NO TRANSACTION
-- +goose Up
-- Reconciliation lists Stripe's Checkout Sessions from this creation time on: every session
-- created before it has an outcome checkout applied (or is no checkout's), but for those
-- awaiting a delayed payment, whose checkouts (PROCESSING, paged by id on the index) it reads
-- a page a run. Each statement can run again; the index is built without blocking writes (and with no
-- lock timeout, which would only leave it invalid).
CREATE TABLE IF NOT EXISTS reconcile_mark (
    id            boolean     PRIMARY KEY DEFAULT true CHECK (id),
    sessions_from timestamptz NOT NULL
);
DROP INDEX CONCURRENTLY IF EXISTS checkouts_processing;
CREATE INDEX CONCURRENTLY checkouts_processing ON checkouts (id) WHERE state = 'PROCESSING';

-- +goose Down
DROP INDEX CONCURRENTLY IF EXISTS checkouts_processing;
DROP TABLE IF EXISTS reconcile_mark;

-- +goose Up
-- Reconciliation lists Stripe's Checkout Sessions from this creation time on: every session
-- created before it has an outcome checkout applied (or is no checkout's).
CREATE TABLE reconcile_mark (
    id            boolean     PRIMARY KEY DEFAULT true CHECK (id),
    sessions_from timestamptz NOT NULL
);

-- +goose Down
DROP TABLE reconcile_mark;

-- +goose Up
-- A mail still unsent is brought up to date when the same mail (its dedupe key) is queued again
-- with another content; its revision then grows, so that a worker that was sending the older
-- content neither deletes nor delays it.
ALTER TABLE mail_outbox ADD COLUMN revision integer NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE mail_outbox DROP COLUMN revision;

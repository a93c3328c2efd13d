-- +goose Up

-- The attempts a delivery had when a manual retry or recover last made it due: its retry
-- schedule counts the attempts after them, from the start, in a new window.
ALTER TABLE deliveries ADD COLUMN schedule_base integer NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE deliveries DROP COLUMN schedule_base;

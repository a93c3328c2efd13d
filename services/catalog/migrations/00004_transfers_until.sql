-- +goose Up
-- When an event stops taking ticket transfers (registration refuses a transfer from then on);
-- null: never.
ALTER TABLE events ADD COLUMN transfers_until timestamptz;

-- +goose Down
ALTER TABLE events DROP COLUMN transfers_until;

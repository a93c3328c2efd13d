-- +goose Up
-- Signed waivers: the waivers a ticket's athlete signed after a transfer (at the transfer or
-- later), with when. Signing one moves it out of pending_waivers; a new transfer resets both.
ALTER TABLE tickets ADD COLUMN signed_waivers jsonb NOT NULL DEFAULT '[]';

-- +goose Down
ALTER TABLE tickets DROP COLUMN signed_waivers;

-- +goose Up
-- Test mode: a key works on live data or on test data kept apart from it (libs/apikey.Mode).
-- Existing keys are live; the default is dropped so that every insert states the mode.
ALTER TABLE api_keys ADD COLUMN mode text NOT NULL DEFAULT 'live' CONSTRAINT api_keys_mode_check CHECK (mode IN ('live', 'test'));
ALTER TABLE api_keys ALTER COLUMN mode DROP DEFAULT;

-- +goose Down
ALTER TABLE api_keys DROP COLUMN mode;

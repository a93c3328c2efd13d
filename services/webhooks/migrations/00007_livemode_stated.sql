-- +goose Up

-- Every insert states its endpoint's mode (test mode, docs/adr/0022): a forgotten one fails instead
-- of making a test endpoint live.
ALTER TABLE endpoints ALTER COLUMN livemode DROP DEFAULT;

-- +goose Down
ALTER TABLE endpoints ALTER COLUMN livemode SET DEFAULT true;

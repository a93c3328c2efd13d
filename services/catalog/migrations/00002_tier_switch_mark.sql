-- +goose Up
-- Date-based price tier switches happen without a message: a worker announces those that
-- happened since the mark, then moves it. No row until its first run.
CREATE TABLE IF NOT EXISTS tier_switch_mark (
    id            boolean     PRIMARY KEY DEFAULT true CHECK (id),
    announced_to  timestamptz NOT NULL
);

-- +goose Down
DROP TABLE IF EXISTS tier_switch_mark;

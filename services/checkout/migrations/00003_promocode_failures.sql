-- +goose Up
-- Failed promocode attempts per subject ("address:<client network>", "key:<publishable key
-- id>"), shared by every instance: when the subject's leaky count of failures is back to zero,
-- and until when it may try no code. Rows past both are swept.
CREATE TABLE promocode_failures (
    subject       text        PRIMARY KEY,
    drained_at    timestamptz NOT NULL,
    blocked_until timestamptz NOT NULL
);
CREATE INDEX promocode_failures_spent ON promocode_failures (greatest(drained_at, blocked_until));

-- +goose Down
DROP TABLE promocode_failures;

-- +goose Up

-- The notifier leases an endpoint to tell about (notifying_until), mails outside any
-- transaction, and retries a notice that failed after a growing wait (notice_attempts rounds).
ALTER TABLE endpoints ADD COLUMN notifying_until timestamptz;
ALTER TABLE endpoints ADD COLUMN notice_attempts integer NOT NULL DEFAULT 0;

-- Who was mailed about an endpoint's disabling (disabled_at tells one disabling from the
-- next), so a retry mails only those not reached yet.
CREATE TABLE endpoint_notices (
    endpoint_id text NOT NULL REFERENCES endpoints (id) ON DELETE CASCADE,
    disabled_at timestamptz NOT NULL,
    email       text NOT NULL,
    sent_at     timestamptz NOT NULL,
    PRIMARY KEY (endpoint_id, disabled_at, email)
);

-- +goose Down
DROP TABLE endpoint_notices;
ALTER TABLE endpoints DROP COLUMN notice_attempts;
ALTER TABLE endpoints DROP COLUMN notifying_until;

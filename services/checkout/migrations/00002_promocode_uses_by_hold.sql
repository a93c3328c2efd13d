-- +goose Up
-- A limited promocode's use is counted from the checkouts themselves at the time of each
-- check: a checkout holding a use (promocode_state RESERVED) counts while it is paid or
-- completed, or awaits payment with its hold not lapsed. A lapsed hold gives its use back at
-- once, without waiting for registration's release event, so the counter table goes.
DROP TABLE promocode_uses;
CREATE INDEX checkouts_promocode_uses ON checkouts (event_id, promocode, hold_expires_at)
    WHERE promocode_state = 'RESERVED';

-- +goose Down
DROP INDEX checkouts_promocode_uses;
CREATE TABLE promocode_uses (
    event_id text    NOT NULL,
    code     text    NOT NULL,
    used     integer NOT NULL DEFAULT 0 CHECK (used >= 0),
    PRIMARY KEY (event_id, code)
);
INSERT INTO promocode_uses (event_id, code, used)
SELECT event_id, promocode, count(*) FROM checkouts WHERE promocode_state = 'RESERVED' GROUP BY event_id, promocode;

-- +goose Up
-- Check-ins at the door: one row per ticket checked in by a scan. A ticket has at most one
-- live check-in (undone_at IS NULL), which the unique index enforces whatever the number of
-- devices scanning it at once; an undone check-in is kept with its undo time.
CREATE TABLE check_ins (
    id              text        PRIMARY KEY,
    organizer_id    text        NOT NULL,
    livemode        boolean     NOT NULL,
    event_id        text        NOT NULL,
    registration_id text        NOT NULL,
    ticket_id       text        NOT NULL REFERENCES tickets (id) ON DELETE CASCADE,
    scanned_at      timestamptz NOT NULL,
    device          text        NOT NULL,
    nonce           text        NOT NULL,
    created_at      timestamptz NOT NULL,
    undone_at       timestamptz
);
CREATE UNIQUE INDEX check_ins_live ON check_ins (ticket_id) WHERE undone_at IS NULL;
CREATE INDEX check_ins_registration ON check_ins (registration_id);

-- Scans by nonce, per organizer and mode: a retried scan answers the result stored here.
-- fingerprint is what the scan named (ticket or event and bib, team), so a nonce reused for
-- another scan is refused.
CREATE TABLE check_in_scans (
    organizer_id text        NOT NULL,
    livemode     boolean     NOT NULL,
    nonce        text        NOT NULL,
    fingerprint  text        NOT NULL,
    result       jsonb,
    created_at   timestamptz NOT NULL,
    PRIMARY KEY (organizer_id, livemode, nonce)
);

-- The ticket's live door check-in time (its scan's scannedAt), which checkedInAt and the
-- checkIn search filter show beside the registration's manual check-ins.
ALTER TABLE tickets ADD COLUMN scanned_at timestamptz;

-- +goose Down
ALTER TABLE tickets DROP COLUMN scanned_at;
DROP TABLE check_in_scans;
DROP TABLE check_ins;

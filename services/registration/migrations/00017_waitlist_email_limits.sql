-- +goose Up
-- The joins of an e-mail (lower case) to an organizer's waitlists in one mode: the hour its
-- window started and how many new entries it made since (docs/adr/0026-waitlist.md). A join
-- locks the row, so joins of one e-mail are counted one at a time across replicas.
CREATE TABLE waitlist_email_joins (
    organizer_id text        NOT NULL,
    livemode     boolean     NOT NULL,
    email        text        NOT NULL,
    window_start timestamptz NOT NULL,
    joins        int         NOT NULL,
    PRIMARY KEY (organizer_id, livemode, email)
);
-- An e-mail's entries in line or offered with an organizer, counted against its cap.
CREATE INDEX waitlist_entries_active_by_email ON waitlist_entries (organizer_id, livemode, email)
    WHERE status IN ('WAITING', 'OFFERED');

-- +goose Down
DROP INDEX waitlist_entries_active_by_email;
DROP TABLE waitlist_email_joins;

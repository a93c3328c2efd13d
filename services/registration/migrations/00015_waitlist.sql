-- +goose Up
-- The waitlist of sold-out categories (docs/adr/0026-waitlist.md). An entry waits in line by
-- its sequence; an offer holds one place of its category in the ledger (places.held) from the
-- moment it is made until it lapses, is closed or is taken by a checkout hold, which then
-- holds that place as its own. The offer's link carries a secret whose hash alone is kept.
CREATE TABLE waitlist_entries (
    id               text        PRIMARY KEY,
    seq              bigserial   NOT NULL,
    organizer_id     text        NOT NULL,
    livemode         boolean     NOT NULL,
    event_id         text        NOT NULL,
    category_id      text        NOT NULL,
    event_name       text        NOT NULL,
    category_name    text        NOT NULL,
    email            text        NOT NULL,
    name             text        NOT NULL,
    team_size        int         NOT NULL CHECK (team_size > 0),
    offer_url        text        NOT NULL,
    status           text        NOT NULL,
    offer_hash       bytea,
    offered_at       timestamptz,
    offer_expires_at timestamptz,
    order_id         text,
    created_at       timestamptz NOT NULL,
    updated_at       timestamptz NOT NULL
);
-- An address waits once per category and mode while its entry is in line or offered.
CREATE UNIQUE INDEX waitlist_entries_active_email ON waitlist_entries (category_id, livemode, email)
    WHERE status IN ('WAITING', 'OFFERED');
-- The first in line of a category; the organizer's list.
CREATE INDEX waitlist_entries_line ON waitlist_entries (category_id, livemode, seq) WHERE status = 'WAITING';
CREATE INDEX waitlist_entries_org ON waitlist_entries (organizer_id, livemode, category_id, seq);
-- The sweeper's lapsed offers; a checkout hold's offer by its secret.
CREATE INDEX waitlist_entries_offer_expiry ON waitlist_entries (offer_expires_at) WHERE status = 'OFFERED';
CREATE UNIQUE INDEX waitlist_entries_offer_hash ON waitlist_entries (offer_hash) WHERE offer_hash IS NOT NULL;

-- A category's waitlist closed by its organizer: no one joins, no one waiting is offered.
CREATE TABLE waitlist_closed (
    category_id  text        NOT NULL,
    livemode     boolean     NOT NULL,
    organizer_id text        NOT NULL,
    closed_at    timestamptz NOT NULL,
    PRIMARY KEY (category_id, livemode)
);

-- +goose Down
DROP TABLE waitlist_closed;
DROP TABLE waitlist_entries;

-- +goose Up
-- Trigram search over the ticket search document, accent-insensitive.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE EXTENSION IF NOT EXISTS unaccent;
-- btree_gin lets the trigram index also hold the event id (see tickets_search).
CREATE EXTENSION IF NOT EXISTS btree_gin;

-- reg_fold lowercases and strips accents; IMMUTABLE (unaccent itself is only STABLE because its
-- dictionary could change) so that it can build a stored generated column and an index.
CREATE FUNCTION reg_fold(text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
    AS $$ SELECT lower(public.unaccent('public.unaccent'::regdictionary, $1)) $$;

-- Orders: a manual (organizer) order or a checkout order that holds places until paid.
CREATE TABLE orders (
    id              text        PRIMARY KEY,
    organizer_id    text        NOT NULL,
    event_id        text        NOT NULL,
    status          text        NOT NULL CHECK (status IN ('PENDING', 'COMPLETED', 'FAILED', 'CANCELLED', 'REFUNDED')),
    source          text        NOT NULL CHECK (source IN ('MANUAL', 'CHECKOUT')),
    hold_id         text,
    amount          bigint      NOT NULL CHECK (amount >= 0),
    currency        text        NOT NULL,
    purchaser_email text,
    purchaser_name  text,
    promocode       text,
    payment_ref     text,
    amount_paid     bigint,
    expires_at      timestamptz,
    paid_at         timestamptz,
    released_at     timestamptz,
    release_reason  text,
    created_at      timestamptz NOT NULL,
    updated_at      timestamptz NOT NULL
);
-- The same checkout hold id returns the same order.
CREATE UNIQUE INDEX orders_hold ON orders (organizer_id, hold_id) WHERE hold_id IS NOT NULL;
-- The sweeper finds expired holds.
CREATE INDEX orders_expiring ON orders (expires_at) WHERE status = 'PENDING';
-- Receipts by purchaser e-mail within an event.
CREATE INDEX orders_receipts ON orders (event_id, lower(purchaser_email)) WHERE status = 'COMPLETED';

-- Registrations: a team in a category of an event. cancelled_at is set when its tickets are
-- cancelled (organizer delete of a paid registration, or its hold released): it then holds no
-- place and no bib.
CREATE TABLE registrations (
    id                    text        PRIMARY KEY,
    organizer_id          text        NOT NULL,
    event_id              text        NOT NULL,
    category_id           text        NOT NULL,
    category_name         text        NOT NULL,
    order_id              text        NOT NULL REFERENCES orders (id),
    team_name             text        NOT NULL,
    club                  text,
    bib                   bigint,
    note                  text,
    checked_in_at         timestamptz[] NOT NULL DEFAULT '{}',
    custom_fields         jsonb       NOT NULL DEFAULT '[]',
    supplement_ids        text[]      NOT NULL DEFAULT '{}',
    supplement_selections jsonb       NOT NULL DEFAULT '[]',
    waivers_accepted      jsonb,
    pending_participants  integer     NOT NULL DEFAULT 0 CHECK (pending_participants >= 0),
    cancelled_at          timestamptz,
    created_at            timestamptz NOT NULL,
    updated_at            timestamptz NOT NULL
);
CREATE UNIQUE INDEX registrations_bib ON registrations (event_id, bib)
    WHERE bib IS NOT NULL AND cancelled_at IS NULL;
CREATE INDEX registrations_order ON registrations (order_id);

-- Tickets: one per athlete (the athlete's data lives on its ticket row), with copies of the
-- registration's and order's searchable fields so that a search reads one table. The adapter
-- refreshes the copies in the transaction that changes a registration or an order.
CREATE TABLE tickets (
    id                 text        PRIMARY KEY,
    athlete_id         text        NOT NULL UNIQUE,
    organizer_id       text        NOT NULL,
    registration_id    text        NOT NULL REFERENCES registrations (id) ON DELETE CASCADE,
    order_id           text        NOT NULL,
    position           integer     NOT NULL,
    status             text        NOT NULL CHECK (status IN ('ACTIVE', 'CANCELLED')),
    cancelled_at       timestamptz,
    fullname           text        NOT NULL,
    id_number          text        NOT NULL,
    email              text        NOT NULL,
    phone              text        NOT NULL,
    gender             text        NOT NULL CHECK (gender IN ('MALE', 'FEMALE')),
    birth_date         date        NOT NULL,
    age                integer     NOT NULL,
    event_id           text        NOT NULL,
    category_id        text        NOT NULL,
    category_name      text        NOT NULL,
    team_name          text        NOT NULL,
    club               text,
    bib                bigint,
    checked_in         boolean     NOT NULL,
    participant_status text        NOT NULL,
    order_status       text        NOT NULL,
    order_amount       bigint      NOT NULL,
    custom_values      jsonb       NOT NULL DEFAULT '{}',
    supplement_keys    text[]      NOT NULL DEFAULT '{}',
    created_at         timestamptz NOT NULL,
    updated_at         timestamptz NOT NULL,
    search_doc         text        GENERATED ALWAYS AS (reg_fold(
        fullname || ' ' || email || ' ' || id_number || ' ' || team_name || ' ' ||
        coalesce(club, '') || ' ' || id || ' ' || coalesce(bib::text, ''))) STORED
);
-- Tenancy and the default sort (createdAt-desc, and -asc read backwards).
CREATE INDEX tickets_org_created ON tickets (organizer_id, created_at DESC, id DESC);
-- eventId and categoryId filters (and their combination).
CREATE INDEX tickets_org_event_category ON tickets (organizer_id, event_id, category_id);
CREATE INDEX tickets_org_category ON tickets (organizer_id, category_id);
CREATE INDEX tickets_registration ON tickets (registration_id, position);
CREATE INDEX tickets_order ON tickets (order_id);
-- Free text: substring match of the folded search document. The event id in the same GIN
-- index lets a text search within one event intersect both inside the index, so only the
-- event's matches are read from the table; without an event filter the trigrams alone serve.
CREATE INDEX tickets_search ON tickets USING gin (event_id, search_doc gin_trgm_ops);
-- customFieldFilters (@> and ? operators) and supplementFilters (@> and &&).
CREATE INDEX tickets_custom_values ON tickets USING gin (custom_values);
CREATE INDEX tickets_supplements ON tickets USING gin (supplement_keys);
-- ageMin/ageMax ranges.
CREATE INDEX tickets_org_age ON tickets (organizer_id, age);
-- cancelledFrom/cancelledTo ranges, over cancelled tickets only.
CREATE INDEX tickets_org_cancelled ON tickets (organizer_id, cancelled_at) WHERE cancelled_at IS NOT NULL;
-- Receipts by athlete e-mail within an event.
CREATE INDEX tickets_receipts ON tickets (event_id, lower(email));

-- Tickets of registrations deleted by their organizer, so a repeated delete answers DELETED.
CREATE TABLE deleted_tickets (
    id              text        PRIMARY KEY,
    organizer_id    text        NOT NULL,
    registration_id text        NOT NULL,
    deleted_at      timestamptz NOT NULL
);

-- The quota ledger: places taken per category. confirmed + held never exceeds the category's
-- quota (checked by the conditional update that takes places); version grows with each change.
CREATE TABLE places (
    category_id text    PRIMARY KEY,
    event_id    text    NOT NULL,
    confirmed   integer NOT NULL DEFAULT 0 CHECK (confirmed >= 0),
    held        integer NOT NULL DEFAULT 0 CHECK (held >= 0),
    -- quota is the category's quota as the catalog last told it (NULL: unlimited); a late
    -- payment whose hold lapsed is checked against it without asking the catalog.
    quota       integer,
    version     bigint  NOT NULL DEFAULT 0
) WITH (fillfactor = 50);

-- E-mails to send, written in the transaction that decides them and sent by the mail worker.
CREATE TABLE mail_outbox (
    id              bigserial   PRIMARY KEY,
    recipient       text        NOT NULL,
    subject         text        NOT NULL,
    body            text        NOT NULL,
    attempts        integer     NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    last_error      text,
    created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_at);

-- +goose Down
DROP TABLE mail_outbox;
DROP TABLE places;
DROP TABLE deleted_tickets;
DROP TABLE tickets;
DROP TABLE registrations;
DROP TABLE orders;
DROP FUNCTION reg_fold(text);

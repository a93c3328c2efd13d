-- +goose Up
-- Search folds text (lower case, accents removed) and matches substrings with trigrams.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE EXTENSION IF NOT EXISTS unaccent;

-- catalog_fold is the folding of events search: lower case without accents. It names the
-- unaccent dictionary explicitly, which makes it immutable, so a generated column and an index
-- can use it.
-- +goose StatementBegin
CREATE FUNCTION catalog_fold(t text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
    RETURN lower(public.unaccent('public.unaccent'::regdictionary, t));
-- +goose StatementEnd

-- Events, identified by the organizer's own external id within the organizer.
CREATE TABLE events (
    id             text        PRIMARY KEY,
    organizer_id   text        NOT NULL,
    external_id    text        NOT NULL,
    name           text        NOT NULL,
    description    text        NOT NULL,
    internal_notes text        NOT NULL,
    status         text        NOT NULL CHECK (status IN ('DRAFT', 'PUBLISHED', 'UNDER_REVIEW', 'POSTPONED', 'COMPLETED', 'CANCELLED', 'ARCHIVED')),
    private        boolean     NOT NULL,
    start_date     date        NOT NULL,
    end_date       date        NOT NULL,
    timezone       text        NOT NULL,
    currency       text        NOT NULL,
    venue_name     text        NOT NULL,
    venue_address  text        NOT NULL,
    venue_city     text        NOT NULL,
    venue_region   text        NOT NULL,
    venue_country  text        NOT NULL,
    preview_token  text        NOT NULL,
    version        bigint      NOT NULL,
    -- fingerprint of the authored content of the last import: an identical import changes nothing.
    fingerprint    text        NOT NULL,
    created_at     timestamptz NOT NULL,
    updated_at     timestamptz NOT NULL,
    search_text    text        GENERATED ALWAYS AS (
        catalog_fold(name || ' ' || description || ' ' || venue_name || ' ' || venue_city)) STORED,
    CONSTRAINT events_organizer_external_key UNIQUE (organizer_id, external_id)
);
CREATE INDEX events_organizer_start ON events (organizer_id, start_date, id);
CREATE INDEX events_public_start ON events (organizer_id, start_date, id) WHERE status = 'PUBLISHED' AND NOT private;
CREATE INDEX events_search ON events USING gin (search_text gin_trgm_ops);

-- The children of an event are replaced as a whole by each import; ids and keys stay stable.
CREATE TABLE categories (
    id          text    PRIMARY KEY,
    event_id    text    NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    key         text    NOT NULL,
    position    integer NOT NULL,
    name        text    NOT NULL,
    description text    NOT NULL,
    team_min    integer NOT NULL,
    team_max    integer NOT NULL,
    gender      text    NOT NULL CHECK (gender IN ('OPEN', 'MALE', 'FEMALE', 'MIXED')),
    age_min     integer,
    age_max     integer,
    quota       integer,
    base_price  bigint  NOT NULL,
    private     boolean NOT NULL,
    published   boolean NOT NULL,
    UNIQUE (event_id, key)
);
CREATE INDEX categories_event ON categories (event_id, position);

CREATE TABLE price_tiers (
    id           text    PRIMARY KEY,
    category_id  text    NOT NULL REFERENCES categories (id) ON DELETE CASCADE,
    event_id     text    NOT NULL,
    key          text    NOT NULL,
    position     integer NOT NULL,
    name         text    NOT NULL,
    price        bigint  NOT NULL,
    from_date    date,
    until_date   date,
    up_to_places integer,
    UNIQUE (category_id, key)
);
CREATE INDEX price_tiers_event ON price_tiers (event_id);

CREATE TABLE form_fields (
    id            text    PRIMARY KEY,
    event_id      text    NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    key           text    NOT NULL,
    position      integer NOT NULL,
    label         text    NOT NULL,
    type          text    NOT NULL,
    required      boolean NOT NULL,
    options       text[]  NOT NULL,
    applies_to    text    NOT NULL,
    category_keys text[]  NOT NULL,
    UNIQUE (event_id, key)
);

CREATE TABLE waivers (
    id         text    PRIMARY KEY,
    event_id   text    NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    key        text    NOT NULL,
    position   integer NOT NULL,
    title      text    NOT NULL,
    body       text    NOT NULL,
    required   boolean NOT NULL,
    for_minors boolean NOT NULL,
    version    integer NOT NULL,
    UNIQUE (event_id, key)
);

-- Every text a waiver has had, kept after the waiver is changed or removed: a signature names
-- a waiver id and version.
CREATE TABLE waiver_versions (
    waiver_id  text        NOT NULL,
    version    integer     NOT NULL,
    event_id   text        NOT NULL,
    title      text        NOT NULL,
    body       text        NOT NULL,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (waiver_id, version)
);

CREATE TABLE sponsors (
    id          text    PRIMARY KEY,
    event_id    text    NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    key         text    NOT NULL,
    position    integer NOT NULL,
    name        text    NOT NULL,
    logo_url    text    NOT NULL,
    website_url text    NOT NULL,
    UNIQUE (event_id, key)
);

CREATE TABLE supplements (
    id          text    PRIMARY KEY,
    event_id    text    NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    key         text    NOT NULL,
    position    integer NOT NULL,
    name        text    NOT NULL,
    description text    NOT NULL,
    active      boolean NOT NULL,
    per         text    NOT NULL,
    -- set for single-price supplements; supplements with options have none
    price       bigint,
    UNIQUE (event_id, key)
);

CREATE TABLE supplement_options (
    id            text    PRIMARY KEY,
    supplement_id text    NOT NULL REFERENCES supplements (id) ON DELETE CASCADE,
    event_id      text    NOT NULL,
    key           text    NOT NULL,
    position      integer NOT NULL,
    name          text    NOT NULL,
    price         bigint  NOT NULL,
    active        boolean NOT NULL,
    UNIQUE (supplement_id, key)
);
CREATE INDEX supplement_options_event ON supplement_options (event_id);

CREATE TABLE promocodes (
    id            text        PRIMARY KEY,
    event_id      text        NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    key           text        NOT NULL,
    position      integer     NOT NULL,
    code          text        NOT NULL,
    kind          text        NOT NULL CHECK (kind IN ('PERCENT', 'FIXED')),
    basis_points  integer,
    amount        bigint,
    valid_from    timestamptz,
    valid_until   timestamptz,
    max_uses      integer,
    category_keys text[]      NOT NULL,
    UNIQUE (event_id, key),
    UNIQUE (event_id, code)
);

CREATE TABLE fees (
    id           text    PRIMARY KEY,
    event_id     text    NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    key          text    NOT NULL,
    position     integer NOT NULL,
    name         text    NOT NULL,
    kind         text    NOT NULL CHECK (kind IN ('PERCENT', 'FIXED')),
    basis_points integer,
    amount       bigint,
    per          text    NOT NULL,
    UNIQUE (event_id, key)
);

-- Projection of registration's places per category (topic registration.places.v1): the counts
-- of the highest version seen. No foreign key: a message may name a category removed since.
CREATE TABLE category_places (
    category_id text        PRIMARY KEY,
    event_id    text        NOT NULL,
    confirmed   integer     NOT NULL,
    held        integer     NOT NULL,
    version     bigint      NOT NULL,
    updated_at  timestamptz NOT NULL
);

-- +goose Down
DROP TABLE category_places;
DROP TABLE fees;
DROP TABLE promocodes;
DROP TABLE supplement_options;
DROP TABLE supplements;
DROP TABLE sponsors;
DROP TABLE waiver_versions;
DROP TABLE waivers;
DROP TABLE form_fields;
DROP TABLE price_tiers;
DROP TABLE categories;
DROP TABLE events;
DROP FUNCTION catalog_fold(text);

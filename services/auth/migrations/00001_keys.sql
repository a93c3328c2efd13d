-- +goose Up
-- Organizers own API keys; every other service refers to them by id only.
CREATE TABLE organizers (
    id         text        PRIMARY KEY,
    name       text        NOT NULL,
    created_at timestamptz NOT NULL
);
CREATE INDEX organizers_created ON organizers (created_at DESC, id DESC);

-- API keys, stored as the hex SHA-256 of the key and its last four characters only.
CREATE TABLE api_keys (
    id              text        PRIMARY KEY,
    organizer_id    text        NOT NULL CONSTRAINT api_keys_organizer_fkey REFERENCES organizers (id),
    type            text        NOT NULL CHECK (type IN ('secret', 'publishable')),
    name            text        NOT NULL,
    key_hash        text        NOT NULL CONSTRAINT api_keys_key_hash_key UNIQUE,
    last4           text        NOT NULL,
    scopes          text[]      NOT NULL DEFAULT '{}',
    allowed_origins text[]      NOT NULL DEFAULT '{}',
    created_at      timestamptz NOT NULL,
    last_used_at    timestamptz,
    expires_at      timestamptz,
    revoked_at      timestamptz
);
CREATE INDEX api_keys_organizer_created ON api_keys (organizer_id, created_at DESC, id DESC);
-- Serves the CORS origin check: active publishable keys containing an origin.
CREATE INDEX api_keys_active_origins ON api_keys USING gin (allowed_origins)
    WHERE type = 'publishable' AND revoked_at IS NULL;

-- Audit trail of key creation and revocation.
CREATE TABLE key_audit (
    id           bigserial   PRIMARY KEY,
    key_id       text        NOT NULL REFERENCES api_keys (id),
    organizer_id text        NOT NULL,
    action       text        NOT NULL CHECK (action IN ('created', 'revoked')),
    actor        text        NOT NULL,
    at           timestamptz NOT NULL
);
CREATE INDEX key_audit_key ON key_audit (key_id, id);

-- +goose Down
DROP TABLE key_audit;
DROP TABLE api_keys;
DROP TABLE organizers;

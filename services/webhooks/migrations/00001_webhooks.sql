-- +goose Up

-- An organizer's receiver of webhooks, in one mode (live or test).
CREATE TABLE endpoints (
    id              text PRIMARY KEY,
    organizer_id    text NOT NULL,
    livemode        boolean NOT NULL DEFAULT true,
    url             text NOT NULL,
    description     text NOT NULL DEFAULT '',
    event_types     text[] NOT NULL,
    status          text NOT NULL DEFAULT 'enabled' CHECK (status IN ('enabled', 'disabled')),
    -- gone: it answered 410; failing: it failed for 5 days; organizer: disabled by the organizer.
    disabled_reason text CHECK (disabled_reason IN ('gone', 'failing', 'organizer')),
    disabled_at     timestamptz,
    -- The first failed attempt since the last success; null while it succeeds.
    failing_since   timestamptz,
    -- When the organization was told that the endpoint was disabled for failing.
    notified_at     timestamptz,
    created_at      timestamptz NOT NULL,
    updated_at      timestamptz NOT NULL,
    CHECK ((status = 'disabled') = (disabled_reason IS NOT NULL))
);
CREATE INDEX endpoints_by_organizer ON endpoints (organizer_id, livemode, created_at, id);
CREATE INDEX endpoints_to_notify ON endpoints (disabled_at) WHERE disabled_reason = 'failing' AND notified_at IS NULL;

-- Signing secrets, encrypted at rest. The current one has no expiry; a rotated-out one signs
-- beside it until expires_at.
CREATE TABLE endpoint_secrets (
    endpoint_id text NOT NULL REFERENCES endpoints (id) ON DELETE CASCADE,
    sealed      bytea NOT NULL,
    created_at  timestamptz NOT NULL,
    expires_at  timestamptz,
    PRIMARY KEY (endpoint_id, created_at)
);

-- One event as receivers get it: body is the exact JSON that is signed.
CREATE TABLE messages (
    id           text PRIMARY KEY,
    organizer_id text NOT NULL,
    livemode     boolean NOT NULL,
    type         text NOT NULL,
    object_id    text NOT NULL,
    sequence     bigint NOT NULL,
    occurred_at  timestamptz NOT NULL,
    body         bytea NOT NULL,
    -- The producer's message id (ce_id); null for pings.
    source_id    text UNIQUE,
    created_at   timestamptz NOT NULL
);
CREATE INDEX messages_by_age ON messages (created_at);

-- The last sequence number given to each object's events.
CREATE TABLE object_sequences (
    organizer_id text NOT NULL,
    object_id    text NOT NULL,
    seq          bigint NOT NULL,
    PRIMARY KEY (organizer_id, object_id)
);

-- A message owed to one endpoint.
CREATE TABLE deliveries (
    id               text PRIMARY KEY,
    endpoint_id      text NOT NULL REFERENCES endpoints (id) ON DELETE CASCADE,
    message_id       text NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
    status           text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed')),
    attempts         integer NOT NULL DEFAULT 0,
    first_attempt_at timestamptz,
    next_attempt_at  timestamptz,
    leased_until     timestamptz,
    last_status_code integer,
    last_latency_ms  integer,
    last_error       text,
    created_at       timestamptz NOT NULL,
    finished_at      timestamptz,
    UNIQUE (endpoint_id, message_id),
    CHECK ((status = 'pending') = (next_attempt_at IS NOT NULL))
);
CREATE INDEX deliveries_due ON deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX deliveries_in_flight ON deliveries (endpoint_id) WHERE leased_until IS NOT NULL;
CREATE INDEX deliveries_by_endpoint ON deliveries (endpoint_id, created_at DESC, id);
CREATE INDEX deliveries_failed ON deliveries (endpoint_id, created_at) WHERE status = 'failed';

-- Each try of a delivery.
CREATE TABLE attempts (
    delivery_id      text NOT NULL REFERENCES deliveries (id) ON DELETE CASCADE,
    n                integer NOT NULL,
    started_at       timestamptz NOT NULL,
    status_code      integer,
    latency_ms       integer NOT NULL,
    error            text NOT NULL DEFAULT '',
    response_excerpt text NOT NULL DEFAULT '',
    PRIMARY KEY (delivery_id, n)
);

-- +goose Down
DROP TABLE attempts;
DROP TABLE deliveries;
DROP TABLE object_sequences;
DROP TABLE messages;
DROP TABLE endpoint_secrets;
DROP TABLE endpoints;

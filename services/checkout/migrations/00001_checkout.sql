-- +goose Up
-- One attempt to buy: its price, the order holding its places and its Stripe payment.
CREATE TABLE checkouts (
    id                 text        PRIMARY KEY,
    organizer_id       text        NOT NULL,
    key_id             text        NOT NULL,
    idempotency_key    text,
    event_id           text        NOT NULL,
    state              text        NOT NULL CHECK (state IN ('CREATED', 'HELD', 'OPEN', 'PROCESSING', 'PAID', 'COMPLETED',
                                                         'EXPIRED', 'PAYMENT_FAILED', 'RELEASED', 'FAILED', 'REFUNDED_NO_PLACE')),
    currency           text        NOT NULL,
    total              bigint      NOT NULL CHECK (total >= 0),
    quote              jsonb       NOT NULL,
    promocode          text,
    promocode_state    text        NOT NULL CHECK (promocode_state IN ('NONE', 'RESERVED', 'RELEASED')),
    purchaser_email    text        NOT NULL,
    purchaser_name     text        NOT NULL,
    -- Audit evidence of what the purchaser signed and reported; never logged.
    legal_signature    jsonb,
    ip_enrichment      jsonb,
    deferred           jsonb,
    order_id           text,
    session_id         text,
    session_url        text,
    payment_intent     text,
    amount_paid        bigint,
    refund_id          text,
    hold_expires_at    timestamptz NOT NULL,
    session_expires_at timestamptz,
    created_at         timestamptz NOT NULL,
    updated_at         timestamptz NOT NULL,
    paid_at            timestamptz,
    completed_at       timestamptz
);
-- Webhooks find their checkout by Stripe session id (not unique: stripe-mock reuses ids).
CREATE INDEX checkouts_session ON checkouts (session_id, created_at DESC) WHERE session_id IS NOT NULL;
-- Registration's order events find their checkout by order id.
CREATE INDEX checkouts_order ON checkouts (order_id) WHERE order_id IS NOT NULL;
-- The sweeper finds checkouts left CREATED.
CREATE INDEX checkouts_created ON checkouts (created_at) WHERE state = 'CREATED';

-- Idempotency keys of session requests, per publishable key. The replay of a succeeded
-- request is one read of this primary key.
CREATE TABLE idempotency_keys (
    key_id          text        NOT NULL,
    idempotency_key text        NOT NULL,
    request_hash    bytea       NOT NULL,
    state           text        NOT NULL CHECK (state IN ('RUNNING', 'SUCCEEDED', 'FAILED')),
    checkout_id     text        NOT NULL,
    response        bytea,
    locked_until    timestamptz NOT NULL,
    created_at      timestamptz NOT NULL,
    expires_at      timestamptz NOT NULL,
    PRIMARY KEY (key_id, idempotency_key)
);
CREATE INDEX idempotency_keys_expires ON idempotency_keys (expires_at);

-- Redemptions of an event's promocode: checkouts with the code pending payment or completed.
CREATE TABLE promocode_uses (
    event_id text    NOT NULL,
    code     text    NOT NULL,
    used     integer NOT NULL DEFAULT 0 CHECK (used >= 0),
    PRIMARY KEY (event_id, code)
);

-- +goose Down
DROP TABLE promocode_uses;
DROP TABLE idempotency_keys;
DROP TABLE checkouts;

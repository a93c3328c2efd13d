-- +goose Up
-- Messages written in the same transaction as the change they describe, relayed to Kafka.
CREATE TABLE outbox (
    id         bigserial PRIMARY KEY,
    topic      text        NOT NULL,
    key        text        NOT NULL,
    payload    bytea       NOT NULL,
    headers    jsonb       NOT NULL DEFAULT '{}',
    created_at timestamptz NOT NULL DEFAULT now()
);

-- Ids of messages a consumer has processed, so a redelivered message is applied once.
CREATE TABLE inbox (
    consumer     text        NOT NULL,
    message_id   text        NOT NULL,
    processed_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (consumer, message_id)
);
CREATE INDEX inbox_processed_at ON inbox (processed_at);

-- +goose Down
DROP TABLE inbox;
DROP TABLE outbox;

-- +goose Up
-- When receipts of an event were last mailed to a recipient (lower case): another receipt mail
-- to it is refused until the cooldown has passed.
CREATE TABLE receipt_mails (
    event_id  text        NOT NULL,
    recipient text        NOT NULL,
    queued_at timestamptz NOT NULL,
    PRIMARY KEY (event_id, recipient)
);

-- A mail with a dedupe key is not queued again while one with the same key is still unsent
-- (the worker deletes a mail once it is sent).
ALTER TABLE mail_outbox ADD COLUMN dedupe_key text;
CREATE UNIQUE INDEX mail_outbox_dedupe ON mail_outbox (dedupe_key) WHERE dedupe_key IS NOT NULL;

-- +goose Down
DROP INDEX mail_outbox_dedupe;
ALTER TABLE mail_outbox DROP COLUMN dedupe_key;
DROP TABLE receipt_mails;

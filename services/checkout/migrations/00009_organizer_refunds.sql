-- +goose Up
-- Refunds an organizer asks for (POST /external/v1/organizer/refunds), whole or partial, made
-- by the refund worker as the late-payment refunds are: due at next_attempt_at, claimed for a
-- lease (claim counts the claims), retried after a temporary failure, failed for good with
-- Stripe's code and message. checkouts.amount_refunded is what the pending and succeeded
-- refunds of a payment return: it grows in the transaction that decides a refund, under the
-- checkout's row lock, and never exceeds amount_paid (the check is the last guard); a refund
-- failed for good gives its amount back.
SET lock_timeout = '5s';
ALTER TABLE checkouts ADD COLUMN IF NOT EXISTS amount_refunded bigint NOT NULL DEFAULT 0;
ALTER TABLE checkouts DROP CONSTRAINT IF EXISTS checkouts_refunded_within_paid,
    ADD CONSTRAINT checkouts_refunded_within_paid CHECK (amount_refunded >= 0 AND amount_refunded <= coalesce(amount_paid, 0));
RESET lock_timeout;

CREATE TABLE IF NOT EXISTS refunds (
    id                 text        PRIMARY KEY,
    organizer_id       text        NOT NULL,
    livemode           boolean     NOT NULL,
    checkout_id        text        NOT NULL REFERENCES checkouts (id) ON DELETE CASCADE,
    order_id           text        NOT NULL,
    payment_intent     text        NOT NULL,
    amount             bigint      NOT NULL CHECK (amount > 0),
    currency           text        NOT NULL,
    reason             text        NOT NULL,
    ticket_ids         text[]      NOT NULL DEFAULT '{}',
    cancel_tickets     boolean     NOT NULL,
    state              text        NOT NULL CHECK (state IN ('pending', 'succeeded', 'failed')),
    provider_refund_id text,
    failure_code       text,
    failure_message    text,
    attempts           integer     NOT NULL DEFAULT 0,
    next_attempt_at    timestamptz,
    claim              integer     NOT NULL DEFAULT 0,
    claimed_until      timestamptz,
    created_at         timestamptz NOT NULL,
    updated_at         timestamptz NOT NULL,
    succeeded_at       timestamptz,
    failed_at          timestamptz
);
-- The organizer lists an order's refunds; the worker finds the due ones.
CREATE INDEX IF NOT EXISTS refunds_order ON refunds (organizer_id, livemode, order_id, created_at);
CREATE INDEX IF NOT EXISTS refunds_due ON refunds (next_attempt_at) WHERE state = 'pending';

-- +goose Down
DROP TABLE IF EXISTS refunds;
ALTER TABLE checkouts DROP CONSTRAINT IF EXISTS checkouts_refunded_within_paid;
ALTER TABLE checkouts DROP COLUMN IF EXISTS amount_refunded;

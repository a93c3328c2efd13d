-- +goose Up
-- Refunds are made by a worker, never by the consumer or webhook that decided them: a pending
-- refund is due at refund_next_attempt_at, which a worker claiming it moves past its lease and a
-- temporary failure moves past its backoff. A refund Stripe refuses for good is REFUND_FAILED
-- with Stripe's code and message, until an operator retries it.
ALTER TABLE checkouts
    ADD COLUMN refund_attempts        integer NOT NULL DEFAULT 0,
    ADD COLUMN refund_next_attempt_at timestamptz,
    ADD COLUMN refund_error_code      text,
    ADD COLUMN refund_error_message   text,
    ADD COLUMN refund_failed_at       timestamptz;
UPDATE checkouts SET refund_next_attempt_at = updated_at WHERE state = 'REFUND_PENDING';
ALTER TABLE checkouts DROP CONSTRAINT checkouts_state_check;
ALTER TABLE checkouts ADD CONSTRAINT checkouts_state_check CHECK (state IN ('CREATED', 'HELD', 'OPEN', 'PROCESSING', 'PAID',
    'COMPLETED', 'EXPIRED', 'PAYMENT_FAILED', 'RELEASED', 'FAILED', 'REFUND_PENDING', 'REFUND_FAILED', 'REFUNDED_NO_PLACE',
    'REFUNDED_NO_PROMOCODE'));
DROP INDEX checkouts_refund_pending;
-- The refund worker finds the due refunds; the operator command lists the failed ones.
CREATE INDEX checkouts_refunds_due ON checkouts (refund_next_attempt_at) WHERE state = 'REFUND_PENDING';
CREATE INDEX checkouts_refunds_failed ON checkouts (refund_failed_at) WHERE state = 'REFUND_FAILED';

-- +goose Down
DROP INDEX checkouts_refunds_failed;
DROP INDEX checkouts_refunds_due;
UPDATE checkouts SET state = 'REFUND_PENDING' WHERE state = 'REFUND_FAILED';
CREATE INDEX checkouts_refund_pending ON checkouts (updated_at) WHERE state = 'REFUND_PENDING';
ALTER TABLE checkouts DROP CONSTRAINT checkouts_state_check;
ALTER TABLE checkouts ADD CONSTRAINT checkouts_state_check CHECK (state IN ('CREATED', 'HELD', 'OPEN', 'PROCESSING', 'PAID',
    'COMPLETED', 'EXPIRED', 'PAYMENT_FAILED', 'RELEASED', 'FAILED', 'REFUND_PENDING', 'REFUNDED_NO_PLACE',
    'REFUNDED_NO_PROMOCODE'));
ALTER TABLE checkouts
    DROP COLUMN refund_failed_at,
    DROP COLUMN refund_error_message,
    DROP COLUMN refund_error_code,
    DROP COLUMN refund_next_attempt_at,
    DROP COLUMN refund_attempts;

-- +goose NO TRANSACTION
-- +goose Up
-- Refunds are made by a worker, never by the consumer or webhook that decided them: a pending
-- refund is due at refund_next_attempt_at (NULL: at once, as a refund decided by an older
-- version), a worker claims it (refund_claim counts the claims, refund_claimed_until is the
-- lease on the database's clock) and a temporary failure moves it past its backoff. A refund
-- Stripe refuses for good is REFUND_FAILED with Stripe's code and message, until an operator
-- retries it.
--
-- checkouts is written while this runs: every statement is its own transaction and can run
-- again (a failed run is simply run again); the statements that lock out writers wait at most
-- lock_timeout for their lock, so that they never queue writers behind a long transaction; the
-- state check is validated without blocking writes and the indexes are built concurrently,
-- with no lock timeout (their waits block no writer, and a timeout would only leave an index
-- invalid).
SET lock_timeout = '5s';
ALTER TABLE checkouts
    ADD COLUMN IF NOT EXISTS refund_attempts        integer NOT NULL DEFAULT 0,
    ADD COLUMN IF NOT EXISTS refund_next_attempt_at timestamptz,
    ADD COLUMN IF NOT EXISTS refund_claim           integer NOT NULL DEFAULT 0,
    ADD COLUMN IF NOT EXISTS refund_claimed_until   timestamptz,
    ADD COLUMN IF NOT EXISTS refund_error_code      text,
    ADD COLUMN IF NOT EXISTS refund_error_message   text,
    ADD COLUMN IF NOT EXISTS refund_failed_at       timestamptz;
ALTER TABLE checkouts DROP CONSTRAINT IF EXISTS checkouts_state_check,
    ADD CONSTRAINT checkouts_state_check CHECK (state IN ('CREATED', 'HELD', 'OPEN', 'PROCESSING', 'PAID', 'COMPLETED',
        'EXPIRED', 'PAYMENT_FAILED', 'RELEASED', 'FAILED', 'REFUND_PENDING', 'REFUND_FAILED', 'REFUNDED_NO_PLACE',
        'REFUNDED_NO_PROMOCODE')) NOT VALID;
ALTER TABLE checkouts VALIDATE CONSTRAINT checkouts_state_check;
RESET lock_timeout;
-- The refund worker finds the due refunds (checkouts_refund_pending, kept, finds the oldest);
-- the operator command lists the failed ones. An index a failed run left invalid is built again.
DROP INDEX CONCURRENTLY IF EXISTS checkouts_refunds_due;
CREATE INDEX CONCURRENTLY checkouts_refunds_due ON checkouts (refund_next_attempt_at) WHERE state = 'REFUND_PENDING';
DROP INDEX CONCURRENTLY IF EXISTS checkouts_refunds_failed;
CREATE INDEX CONCURRENTLY checkouts_refunds_failed ON checkouts (refund_failed_at) WHERE state = 'REFUND_FAILED';

-- +goose Down
DROP INDEX CONCURRENTLY IF EXISTS checkouts_refunds_failed;
DROP INDEX CONCURRENTLY IF EXISTS checkouts_refunds_due;
SET lock_timeout = '5s';
UPDATE checkouts SET state = 'REFUND_PENDING' WHERE state = 'REFUND_FAILED';
ALTER TABLE checkouts DROP CONSTRAINT IF EXISTS checkouts_state_check,
    ADD CONSTRAINT checkouts_state_check CHECK (state IN ('CREATED', 'HELD', 'OPEN', 'PROCESSING', 'PAID', 'COMPLETED',
        'EXPIRED', 'PAYMENT_FAILED', 'RELEASED', 'FAILED', 'REFUND_PENDING', 'REFUNDED_NO_PLACE', 'REFUNDED_NO_PROMOCODE')) NOT VALID;
ALTER TABLE checkouts VALIDATE CONSTRAINT checkouts_state_check;
ALTER TABLE checkouts
    DROP COLUMN IF EXISTS refund_failed_at,
    DROP COLUMN IF EXISTS refund_error_message,
    DROP COLUMN IF EXISTS refund_error_code,
    DROP COLUMN IF EXISTS refund_claimed_until,
    DROP COLUMN IF EXISTS refund_claim,
    DROP COLUMN IF EXISTS refund_next_attempt_at,
    DROP COLUMN IF EXISTS refund_attempts;
RESET lock_timeout;

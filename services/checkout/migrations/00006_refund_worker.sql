-- +goose NO TRANSACTION
-- +goose Up
-- Refunds are made by a worker, never by the consumer or webhook that decided them: a pending
-- refund is due at refund_next_attempt_at (NULL: at once, as a refund decided by an older
-- version), a worker claims it (refund_claim counts the claims, refund_claimed_until is the
-- lease on the database's clock) and a temporary failure moves it past its backoff. A refund
-- Stripe refuses for good is REFUND_FAILED with Stripe's code and message, until an operator
-- retries it.
--
-- checkouts is written while this runs: every statement is its own transaction, waits at most
-- lock_timeout for its lock and can run again (a failed run is simply run again), the state
-- check is validated without blocking writes and the indexes are built concurrently.
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
-- The refund worker finds the due refunds; the operator command lists the failed ones. An index
-- a failed run left invalid is built again.
DROP INDEX CONCURRENTLY IF EXISTS checkouts_refunds_due;
CREATE INDEX CONCURRENTLY checkouts_refunds_due ON checkouts (refund_next_attempt_at) WHERE state = 'REFUND_PENDING';
DROP INDEX CONCURRENTLY IF EXISTS checkouts_refunds_failed;
CREATE INDEX CONCURRENTLY checkouts_refunds_failed ON checkouts (refund_failed_at) WHERE state = 'REFUND_FAILED';
DROP INDEX CONCURRENTLY IF EXISTS checkouts_refund_pending;
RESET lock_timeout;

-- +goose Down
SET lock_timeout = '5s';
UPDATE checkouts SET state = 'REFUND_PENDING' WHERE state = 'REFUND_FAILED';
DROP INDEX CONCURRENTLY IF EXISTS checkouts_refund_pending;
CREATE INDEX CONCURRENTLY checkouts_refund_pending ON checkouts (updated_at) WHERE state = 'REFUND_PENDING';
DROP INDEX CONCURRENTLY IF EXISTS checkouts_refunds_failed;
DROP INDEX CONCURRENTLY IF EXISTS checkouts_refunds_due;
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

-- +goose Up
-- A refund is decided in the transaction of the event that calls for it (REFUND_PENDING, with
-- its reason) and made through Stripe outside it, so no Stripe call runs while the checkout's
-- row is locked; the refund is recorded afterwards (REFUNDED_NO_PLACE or
-- REFUNDED_NO_PROMOCODE). Pending refunds left by a failed call are retried by the sweeper.
ALTER TABLE checkouts ADD COLUMN refund_reason text;
ALTER TABLE checkouts DROP CONSTRAINT checkouts_state_check;
ALTER TABLE checkouts ADD CONSTRAINT checkouts_state_check CHECK (state IN ('CREATED', 'HELD', 'OPEN', 'PROCESSING', 'PAID',
    'COMPLETED', 'EXPIRED', 'PAYMENT_FAILED', 'RELEASED', 'FAILED', 'REFUND_PENDING', 'REFUNDED_NO_PLACE',
    'REFUNDED_NO_PROMOCODE'));
CREATE INDEX checkouts_refund_pending ON checkouts (updated_at) WHERE state = 'REFUND_PENDING';

-- +goose Down
DROP INDEX checkouts_refund_pending;
ALTER TABLE checkouts DROP CONSTRAINT checkouts_state_check;
ALTER TABLE checkouts ADD CONSTRAINT checkouts_state_check CHECK (state IN ('CREATED', 'HELD', 'OPEN', 'PROCESSING', 'PAID',
    'COMPLETED', 'EXPIRED', 'PAYMENT_FAILED', 'RELEASED', 'FAILED', 'REFUNDED_NO_PLACE', 'REFUNDED_NO_PROMOCODE'));
ALTER TABLE checkouts DROP COLUMN refund_reason;

-- +goose Up
-- A checkout keeps its promocode's maxUses as priced, so that a payment that arrives after its
-- hold lapsed takes a use again only if one is left; when none is, the payment is refunded and
-- the checkout ends REFUNDED_NO_PROMOCODE. Checkouts made before keep no limit (NULL).
ALTER TABLE checkouts ADD COLUMN promocode_max_uses bigint;
ALTER TABLE checkouts DROP CONSTRAINT checkouts_state_check;
ALTER TABLE checkouts ADD CONSTRAINT checkouts_state_check CHECK (state IN ('CREATED', 'HELD', 'OPEN', 'PROCESSING', 'PAID',
    'COMPLETED', 'EXPIRED', 'PAYMENT_FAILED', 'RELEASED', 'FAILED', 'REFUNDED_NO_PLACE', 'REFUNDED_NO_PROMOCODE'));

-- +goose Down
ALTER TABLE checkouts DROP CONSTRAINT checkouts_state_check;
ALTER TABLE checkouts ADD CONSTRAINT checkouts_state_check CHECK (state IN ('CREATED', 'HELD', 'OPEN', 'PROCESSING', 'PAID',
    'COMPLETED', 'EXPIRED', 'PAYMENT_FAILED', 'RELEASED', 'FAILED', 'REFUNDED_NO_PLACE'));
ALTER TABLE checkouts DROP COLUMN promocode_max_uses;

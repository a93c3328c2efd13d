-- +goose Up
-- What the refunds an organizer made through checkout return of an order's payment in all
-- (checkout decides and makes them; refund.succeeded reports each). The order is REFUNDED once
-- it is the whole payment; a partial refund leaves it COMPLETED with this amount.
SET lock_timeout = '5s';
ALTER TABLE orders ADD COLUMN IF NOT EXISTS amount_refunded bigint NOT NULL DEFAULT 0 CHECK (amount_refunded >= 0);
RESET lock_timeout;

-- +goose Down
ALTER TABLE orders DROP COLUMN IF EXISTS amount_refunded;

-- +goose Up
-- Holds not yet paid for are capped per client network and per purchaser e-mail in each
-- event. A hold counts while its order is PENDING and its expiry has not passed; these indexes
-- read only such orders of one subject in one event, in expiry order.
ALTER TABLE orders ADD COLUMN client_network text;
CREATE INDEX orders_held_by_network ON orders (event_id, client_network, expires_at)
    WHERE status = 'PENDING' AND client_network IS NOT NULL;
CREATE INDEX orders_held_by_email ON orders (event_id, lower(purchaser_email), expires_at)
    WHERE status = 'PENDING';

-- +goose Down
DROP INDEX orders_held_by_email;
DROP INDEX orders_held_by_network;
ALTER TABLE orders DROP COLUMN client_network;

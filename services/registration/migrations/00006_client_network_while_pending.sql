-- +goose Up
-- An order's client network is needed only while its hold is unpaid (the caps on unpaid
-- places): orders that left PENDING forget it.
UPDATE orders SET client_network = NULL WHERE status <> 'PENDING' AND client_network IS NOT NULL;

-- +goose Down
SELECT 1;

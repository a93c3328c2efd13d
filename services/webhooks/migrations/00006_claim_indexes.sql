-- +goose Up

-- The claim reads, per endpoint, its few first due deliveries in order (next_attempt_at, id)
-- and counts its running leases; each index serves one exactly, so that a backlog of
-- thousands per endpoint costs the claim a few rows per endpoint, not the backlog and a sort,
-- whatever the table's statistics say.
CREATE INDEX deliveries_due_in_order ON deliveries (endpoint_id, next_attempt_at, id) WHERE status = 'pending';
CREATE INDEX deliveries_leased ON deliveries (endpoint_id, leased_until) WHERE status = 'pending' AND leased_until IS NOT NULL;
DROP INDEX deliveries_due_by_endpoint;
DROP INDEX deliveries_in_flight;

-- +goose Down
CREATE INDEX deliveries_in_flight ON deliveries (endpoint_id) WHERE leased_until IS NOT NULL;
CREATE INDEX deliveries_due_by_endpoint ON deliveries (endpoint_id, next_attempt_at) WHERE status = 'pending';
DROP INDEX deliveries_leased;
DROP INDEX deliveries_due_in_order;

-- +goose Up

-- An endpoint's due deliveries in order, for the claim that takes at most a few per endpoint.
CREATE INDEX deliveries_due_by_endpoint ON deliveries (endpoint_id, next_attempt_at) WHERE status = 'pending';

-- +goose Down
DROP INDEX deliveries_due_by_endpoint;

-- +goose Up
-- The ledger never holds more places than the category's quota, whatever statement writes it:
-- the conditional updates of single changes never break it, and a combined create's
-- transaction, which takes the places of many categories in one statement, fails as a whole
-- when one of them would pass its quota. Every row satisfies it already (a take that would
-- pass the quota changes nothing, the quota included).
ALTER TABLE places ADD CONSTRAINT places_within_quota CHECK (quota IS NULL OR confirmed + held <= quota);

-- +goose Down
ALTER TABLE places DROP CONSTRAINT places_within_quota;

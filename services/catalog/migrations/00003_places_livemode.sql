-- +goose Up
-- Places are counted per mode: test registrations never move live counts, nor the other way
-- round. Existing rows are live; every insert states its mode. The table is small (a row per
-- category and mode) but written by the places consumer: its lock is waited for 5 s at most.
SET LOCAL lock_timeout = '5s';
ALTER TABLE category_places ADD COLUMN livemode boolean NOT NULL DEFAULT true;
ALTER TABLE category_places ALTER COLUMN livemode DROP DEFAULT;
ALTER TABLE category_places DROP CONSTRAINT category_places_pkey;
ALTER TABLE category_places ADD PRIMARY KEY (category_id, livemode);

-- +goose Down
DELETE FROM category_places WHERE NOT livemode;
ALTER TABLE category_places DROP CONSTRAINT category_places_pkey;
ALTER TABLE category_places DROP COLUMN livemode;
ALTER TABLE category_places ADD PRIMARY KEY (category_id);

-- +goose NO TRANSACTION
-- +goose Up
-- Test mode: every checkout, idempotency record and reconciliation mark belongs to live or test
-- data (livemode, from the caller's key). Rows made before are live (DEFAULT true, dropped
-- once added so that every insert states its mode). An idempotency key of one mode never
-- matches the other's: the mode is part of the primary key, swapped in on an index built
-- without blocking writes; a record names its organizer (NULL before: live), so that the wipe
-- of an organizer's test data finds its records, those of no checkout too. Each statement can
-- run again; those that lock out writers wait at most lock_timeout.
SET lock_timeout = '5s';
ALTER TABLE checkouts ADD COLUMN IF NOT EXISTS livemode boolean NOT NULL DEFAULT true;
ALTER TABLE checkouts ALTER COLUMN livemode DROP DEFAULT;
ALTER TABLE idempotency_keys ADD COLUMN IF NOT EXISTS livemode boolean NOT NULL DEFAULT true;
ALTER TABLE idempotency_keys ALTER COLUMN livemode DROP DEFAULT;
ALTER TABLE idempotency_keys ADD COLUMN IF NOT EXISTS organizer_id text;
ALTER TABLE reconcile_mark ADD COLUMN IF NOT EXISTS livemode boolean NOT NULL DEFAULT true;
ALTER TABLE reconcile_mark ALTER COLUMN livemode DROP DEFAULT;
ALTER TABLE reconcile_mark DROP COLUMN IF EXISTS id;
ALTER TABLE reconcile_mark DROP CONSTRAINT IF EXISTS reconcile_mark_pkey, ADD CONSTRAINT reconcile_mark_pkey PRIMARY KEY (livemode);
RESET lock_timeout;
DROP INDEX CONCURRENTLY IF EXISTS idempotency_keys_mode;
CREATE UNIQUE INDEX CONCURRENTLY idempotency_keys_mode ON idempotency_keys (key_id, livemode, idempotency_key);
SET lock_timeout = '5s';
ALTER TABLE idempotency_keys DROP CONSTRAINT IF EXISTS idempotency_keys_pkey,
    ADD CONSTRAINT idempotency_keys_pkey PRIMARY KEY USING INDEX idempotency_keys_mode;
RESET lock_timeout;
-- The wipe of an organizer's test data finds its test checkouts and idempotency records.
DROP INDEX CONCURRENTLY IF EXISTS checkouts_test_organizer;
CREATE INDEX CONCURRENTLY checkouts_test_organizer ON checkouts (organizer_id) WHERE NOT livemode;
DROP INDEX CONCURRENTLY IF EXISTS idempotency_keys_test_organizer;
CREATE INDEX CONCURRENTLY idempotency_keys_test_organizer ON idempotency_keys (organizer_id) WHERE NOT livemode;

-- +goose Down
DROP INDEX CONCURRENTLY IF EXISTS idempotency_keys_test_organizer;
DROP INDEX CONCURRENTLY IF EXISTS checkouts_test_organizer;
SET lock_timeout = '5s';
DELETE FROM idempotency_keys WHERE NOT livemode;
DELETE FROM checkouts WHERE NOT livemode;
DELETE FROM reconcile_mark WHERE NOT livemode;
RESET lock_timeout;
DROP INDEX CONCURRENTLY IF EXISTS idempotency_keys_key;
CREATE UNIQUE INDEX CONCURRENTLY idempotency_keys_key ON idempotency_keys (key_id, idempotency_key);
SET lock_timeout = '5s';
ALTER TABLE idempotency_keys DROP CONSTRAINT IF EXISTS idempotency_keys_pkey,
    ADD CONSTRAINT idempotency_keys_pkey PRIMARY KEY USING INDEX idempotency_keys_key;
ALTER TABLE idempotency_keys DROP COLUMN IF EXISTS livemode, DROP COLUMN IF EXISTS organizer_id;
ALTER TABLE reconcile_mark DROP CONSTRAINT IF EXISTS reconcile_mark_pkey;
ALTER TABLE reconcile_mark ADD COLUMN IF NOT EXISTS id boolean NOT NULL DEFAULT true CHECK (id);
ALTER TABLE reconcile_mark ADD CONSTRAINT reconcile_mark_pkey PRIMARY KEY (id);
ALTER TABLE reconcile_mark DROP COLUMN IF EXISTS livemode;
ALTER TABLE checkouts DROP COLUMN IF EXISTS livemode;
RESET lock_timeout;

-- +goose Up
-- Test mode: every row of an order, registration, ticket, hold and place count belongs to the
-- mode of the key that wrote it. Existing rows are live; the defaults go once they are set, so
-- every insert states its mode.
ALTER TABLE orders ADD COLUMN livemode boolean NOT NULL DEFAULT true;
ALTER TABLE orders ALTER COLUMN livemode DROP DEFAULT;
ALTER TABLE registrations ADD COLUMN livemode boolean NOT NULL DEFAULT true;
ALTER TABLE registrations ALTER COLUMN livemode DROP DEFAULT;
ALTER TABLE tickets ADD COLUMN livemode boolean NOT NULL DEFAULT true;
ALTER TABLE tickets ALTER COLUMN livemode DROP DEFAULT;
ALTER TABLE deleted_tickets ADD COLUMN livemode boolean NOT NULL DEFAULT true;
ALTER TABLE deleted_tickets ALTER COLUMN livemode DROP DEFAULT;
ALTER TABLE released_holds ADD COLUMN livemode boolean NOT NULL DEFAULT true;
ALTER TABLE released_holds ALTER COLUMN livemode DROP DEFAULT;
ALTER TABLE released_holds DROP CONSTRAINT released_holds_pkey, ADD PRIMARY KEY (organizer_id, livemode, hold_id);
ALTER TABLE receipt_mails ADD COLUMN livemode boolean NOT NULL DEFAULT true;
ALTER TABLE receipt_mails ALTER COLUMN livemode DROP DEFAULT;
ALTER TABLE receipt_mails DROP CONSTRAINT receipt_mails_pkey, ADD PRIMARY KEY (event_id, livemode, recipient);

-- The ledger is kept per mode: a test purchase never takes a live place.
ALTER TABLE places ADD COLUMN livemode boolean NOT NULL DEFAULT true;
ALTER TABLE places ALTER COLUMN livemode DROP DEFAULT;
ALTER TABLE places DROP CONSTRAINT places_pkey, ADD PRIMARY KEY (category_id, livemode);

-- Hold ids and bib numbers are unique within a mode.
DROP INDEX orders_hold;
CREATE UNIQUE INDEX orders_hold ON orders (organizer_id, livemode, hold_id) WHERE hold_id IS NOT NULL;
DROP INDEX registrations_bib;
CREATE UNIQUE INDEX registrations_bib ON registrations (event_id, livemode, bib)
    WHERE bib IS NOT NULL AND cancelled_at IS NULL;
-- A search reads one organizer's tickets of one mode in the default sort.
DROP INDEX tickets_org_created;
CREATE INDEX tickets_org_created ON tickets (organizer_id, livemode, created_at DESC, id DESC);
-- The wipe of an organizer's test data reads its test orders.
CREATE INDEX orders_test ON orders (organizer_id) WHERE NOT livemode;

-- Mail caused by test data, kept instead of sent (30 days, or until the test data is wiped).
CREATE TABLE test_mail (
    id           text        PRIMARY KEY,
    organizer_id text        NOT NULL,
    recipient    text        NOT NULL,
    subject      text        NOT NULL,
    body         text        NOT NULL,
    order_id     text,
    created_at   timestamptz NOT NULL
);
CREATE INDEX test_mail_org ON test_mail (organizer_id, created_at DESC, id DESC);
CREATE INDEX test_mail_created ON test_mail (created_at);

-- +goose Down
DROP TABLE test_mail;
DELETE FROM tickets WHERE NOT livemode;
DELETE FROM registrations WHERE NOT livemode;
DELETE FROM orders WHERE NOT livemode;
DELETE FROM deleted_tickets WHERE NOT livemode;
DROP INDEX orders_test;
DROP INDEX tickets_org_created;
CREATE INDEX tickets_org_created ON tickets (organizer_id, created_at DESC, id DESC);
DROP INDEX registrations_bib;
CREATE UNIQUE INDEX registrations_bib ON registrations (event_id, bib)
    WHERE bib IS NOT NULL AND cancelled_at IS NULL;
DROP INDEX orders_hold;
CREATE UNIQUE INDEX orders_hold ON orders (organizer_id, hold_id) WHERE hold_id IS NOT NULL;
DELETE FROM places WHERE NOT livemode;
ALTER TABLE places DROP CONSTRAINT places_pkey, ADD PRIMARY KEY (category_id);
ALTER TABLE places DROP COLUMN livemode;
DELETE FROM receipt_mails WHERE NOT livemode;
ALTER TABLE receipt_mails DROP CONSTRAINT receipt_mails_pkey, ADD PRIMARY KEY (event_id, recipient);
ALTER TABLE receipt_mails DROP COLUMN livemode;
DELETE FROM released_holds WHERE NOT livemode;
ALTER TABLE released_holds DROP CONSTRAINT released_holds_pkey, ADD PRIMARY KEY (organizer_id, hold_id);
ALTER TABLE released_holds DROP COLUMN livemode;
ALTER TABLE deleted_tickets DROP COLUMN livemode;
ALTER TABLE tickets DROP COLUMN livemode;
ALTER TABLE registrations DROP COLUMN livemode;
ALTER TABLE orders DROP COLUMN livemode;

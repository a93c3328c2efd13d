-- +goose Up
-- A registration bought for someone else in the same checkout (a guest registration) keeps
-- the guest's contact, as the buyer gave it. The guest finds the order's receipts by it.
ALTER TABLE registrations ADD COLUMN guest_email text, ADD COLUMN guest_name text;
CREATE INDEX registrations_guest_receipts ON registrations (event_id, lower(guest_email))
    WHERE guest_email IS NOT NULL;

-- +goose Down
DROP INDEX registrations_guest_receipts;
ALTER TABLE registrations DROP COLUMN guest_email, DROP COLUMN guest_name;

-- +goose Up
-- A registration bought for someone else in the same checkout (a guest registration) keeps
-- the guest's contact, as the buyer gave it.
ALTER TABLE registrations ADD COLUMN guest_email text, ADD COLUMN guest_name text;

-- +goose Down
ALTER TABLE registrations DROP COLUMN guest_email, DROP COLUMN guest_name;

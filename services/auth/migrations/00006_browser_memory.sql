-- +goose Up
-- A session keeps the hash of the browser binding it was opened in, so that each use of the
-- session renews the console's memory of that browser: a member who stays signed in stays a
-- known browser. A browser is remembered from its last sign-in or session use (last_seen_at).
-- Sessions opened before keep no binding ('') and renew nothing.
ALTER TABLE console_sessions ADD COLUMN browser_hash text NOT NULL DEFAULT '';
ALTER TABLE signin_browsers RENAME COLUMN signed_in_at TO last_seen_at;
ALTER INDEX signin_browsers_signed_in_at RENAME TO signin_browsers_last_seen_at;

-- +goose Down
ALTER INDEX signin_browsers_last_seen_at RENAME TO signin_browsers_signed_in_at;
ALTER TABLE signin_browsers RENAME COLUMN last_seen_at TO signed_in_at;
ALTER TABLE console_sessions DROP COLUMN browser_hash;

-- name: TryLockSession :one
-- Takes a session-level advisory lock unless another session holds it: it lasts until
-- UnlockSession, or until the connection ends.
SELECT pg_try_advisory_lock(sqlc.arg(lock_id)::bigint);

-- name: UnlockSession :one
SELECT pg_advisory_unlock(sqlc.arg(lock_id)::bigint);

-- name: InsertAuditEntry :exec
INSERT INTO audit_log (organizer_id, actor, address, action, subject_id, detail, at)
VALUES ($1, $2, $3, $4, $5, $6, $7);

-- name: ListAuditEntries :many
SELECT * FROM audit_log WHERE organizer_id = $1
ORDER BY id DESC
LIMIT $2 OFFSET $3;

-- name: CountAuditEntries :one
SELECT count(*) FROM audit_log WHERE organizer_id = $1;

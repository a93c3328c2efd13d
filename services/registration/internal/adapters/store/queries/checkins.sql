-- name: ClaimScanNonce :execrows
-- Records a scan's nonce; 0 rows when the nonce was seen (the first scan's transaction is
-- waited for by the unique key).
INSERT INTO check_in_scans (organizer_id, livemode, nonce, fingerprint, created_at)
VALUES ($1, $2, $3, $4, $5)
ON CONFLICT DO NOTHING;

-- name: GetScan :one
SELECT fingerprint, result FROM check_in_scans WHERE organizer_id = $1 AND livemode = $2 AND nonce = $3;

-- name: SetScanResult :exec
UPDATE check_in_scans SET result = $4 WHERE organizer_id = $1 AND livemode = $2 AND nonce = $3;

-- name: FirstTicketByBib :one
-- The first ticket of the registration holding bib in the event, preferring one not cancelled.
SELECT t.id FROM registrations r JOIN tickets t ON t.registration_id = r.id
WHERE r.organizer_id = $1 AND r.livemode = $2 AND r.event_id = $3 AND r.bib = $4
ORDER BY r.cancelled_at IS NOT NULL, r.created_at DESC, t.position
LIMIT 1;

-- name: IsDeletedTicket :one
SELECT EXISTS (SELECT 1 FROM deleted_tickets WHERE id = $1 AND organizer_id = $2 AND livemode = $3);

-- name: InsertCheckIn :execrows
-- 0 rows when the ticket already has a live check-in.
INSERT INTO check_ins (id, organizer_id, livemode, event_id, registration_id, ticket_id, scanned_at, device, nonce, created_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
ON CONFLICT (ticket_id) WHERE undone_at IS NULL DO NOTHING;

-- name: LiveCheckIns :many
SELECT c.*, t.athlete_id, t.fullname, t.team_name, t.category_id, t.bib
FROM check_ins c JOIN tickets t ON t.id = c.ticket_id
WHERE c.registration_id = $1 AND c.undone_at IS NULL;

-- name: GetCheckIn :one
SELECT c.*, t.athlete_id, t.fullname, t.team_name, t.category_id, t.bib
FROM check_ins c JOIN tickets t ON t.id = c.ticket_id
WHERE c.id = $1;

-- name: SetTicketScanned :exec
UPDATE tickets SET scanned_at = $2, checked_in = true, updated_at = $3 WHERE id = $1;

-- name: UndoCheckIn :execrows
UPDATE check_ins SET undone_at = $2 WHERE id = $1 AND undone_at IS NULL;

-- name: ClearTicketScanned :exec
-- The ticket stays checked in when its registration has manual check-ins.
UPDATE tickets t SET scanned_at = NULL, checked_in = cardinality(r.checked_in_at) > 0, updated_at = $2
FROM registrations r WHERE t.id = $1 AND r.id = t.registration_id;

-- name: DeleteTestScans :exec
DELETE FROM check_in_scans WHERE organizer_id = $1 AND NOT livemode;

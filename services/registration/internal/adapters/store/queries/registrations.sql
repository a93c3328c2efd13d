-- name: GetRegistration :one
SELECT * FROM registrations WHERE id = $1;

-- name: GetRegistrationForUpdate :one
SELECT * FROM registrations WHERE id = $1 FOR UPDATE;

-- name: GetRegistrations :many
SELECT * FROM registrations WHERE id = ANY(sqlc.arg(ids)::text[]);

-- name: RegistrationsByOrder :many
SELECT * FROM registrations WHERE order_id = $1 ORDER BY created_at, id;

-- name: UpdateRegistration :exec
UPDATE registrations SET category_id = $2, category_name = $3, team_name = $4, club = $5, bib = $6,
    note = $7, checked_in_at = $8, custom_fields = $9, supplement_ids = $10,
    supplement_selections = $11, pending_participants = $12, updated_at = $13
WHERE id = $1;

-- name: SetRegistrationsCancelled :exec
UPDATE registrations SET cancelled_at = sqlc.narg(cancelled_at), updated_at = sqlc.arg(updated_at)
WHERE order_id = sqlc.arg(order_id);

-- name: SetRegistrationCancelled :exec
UPDATE registrations SET cancelled_at = $2, updated_at = $2 WHERE id = $1;

-- name: DeleteRegistration :exec
DELETE FROM registrations WHERE id = $1;

-- name: CountRegistrationsOfOrder :one
SELECT count(*) FROM registrations WHERE order_id = $1;

-- name: InsertDeletedTickets :exec
INSERT INTO deleted_tickets (id, organizer_id, registration_id, deleted_at, livemode)
SELECT unnest(sqlc.arg(ids)::text[]), sqlc.arg(organizer_id), sqlc.arg(registration_id), sqlc.arg(deleted_at), sqlc.arg(livemode);

-- name: GetDeletedTicket :one
SELECT * FROM deleted_tickets WHERE id = $1 AND organizer_id = $2 AND livemode = $3;

-- name: InsertRegistrations :exec
-- Inserts the registrations of rows, a JSON array of objects keyed by column name (write.go).
INSERT INTO registrations (
    id, organizer_id, event_id, category_id, category_name, order_id, team_name, club, bib, note,
    checked_in_at, custom_fields, supplement_ids, supplement_selections, waivers_accepted,
    pending_participants, cancelled_at, created_at, updated_at, guest_email, guest_name, livemode
)
SELECT id, organizer_id, event_id, category_id, category_name, order_id, team_name, club, bib, note,
    checked_in_at, custom_fields, supplement_ids, supplement_selections, waivers_accepted,
    pending_participants, cancelled_at, created_at, updated_at, guest_email, guest_name, livemode
FROM json_populate_recordset(NULL::registrations, sqlc.arg(rows)::json);

-- name: TouchRegistration :exec
UPDATE registrations SET updated_at = $2 WHERE id = $1;

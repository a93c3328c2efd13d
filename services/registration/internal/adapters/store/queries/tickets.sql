-- name: UpdateTicket :exec
UPDATE tickets SET position = $2, status = $3, cancelled_at = $4, fullname = $5, id_number = $6,
    email = $7, phone = $8, gender = $9, birth_date = $10, age = $11, category_id = $12,
    category_name = $13, team_name = $14, club = $15, bib = $16, checked_in = ($17 OR scanned_at IS NOT NULL),
    participant_status = $18, custom_values = $19, supplement_keys = $20, updated_at = $21
WHERE id = $1;

-- name: GetTicket :one
SELECT id, organizer_id, livemode, registration_id, status, cancelled_at FROM tickets WHERE id = $1;

-- name: TicketsByRegistrations :many
SELECT id, athlete_id, registration_id, position, status, cancelled_at, fullname, id_number,
       email, phone, gender, birth_date, age, created_at, updated_at, scanned_at, pending_waivers, transfers,
       signed_waivers
FROM tickets WHERE registration_id = ANY(sqlc.arg(ids)::text[])
ORDER BY registration_id, position;

-- name: SetTicketsCancelledByRegistration :exec
UPDATE tickets SET status = 'CANCELLED', cancelled_at = $2, updated_at = $2
WHERE registration_id = $1 AND status = 'ACTIVE';

-- name: SetTicketsCancelledByOrder :exec
UPDATE tickets SET status = 'CANCELLED', cancelled_at = $2, updated_at = $2, order_status = $3
WHERE order_id = $1 AND status = 'ACTIVE';

-- name: ReactivateTicketsByOrder :exec
UPDATE tickets SET status = 'ACTIVE', cancelled_at = NULL, updated_at = $2, order_status = $3
WHERE order_id = $1 AND cancelled_at = $4;

-- name: ReceiptTickets :many
SELECT t.id, t.order_id, t.category_name, t.team_name
FROM tickets t WHERE t.order_id = ANY(sqlc.arg(order_ids)::text[]) AND t.status = 'ACTIVE'
ORDER BY t.order_id, t.registration_id, t.position;

-- name: InsertTickets :exec
-- Inserts the tickets of rows, a JSON array of objects keyed by column name (write.go).
INSERT INTO tickets (
    id, athlete_id, organizer_id, registration_id, order_id, position, status, cancelled_at,
    fullname, id_number, email, phone, gender, birth_date, age, event_id, category_id,
    category_name, team_name, club, bib, checked_in, participant_status, order_status,
    order_amount, custom_values, supplement_keys, created_at, updated_at, livemode
)
SELECT id, athlete_id, organizer_id, registration_id, order_id, position, status, cancelled_at,
    fullname, id_number, email, phone, gender, birth_date, age, event_id, category_id,
    category_name, team_name, club, bib, checked_in, participant_status, order_status,
    order_amount, custom_values, supplement_keys, created_at, updated_at, livemode
FROM json_populate_recordset(NULL::tickets, sqlc.arg(rows)::json);

-- name: TransferTicket :exec
-- Gives the ticket to another athlete: its search columns follow the new athlete.
UPDATE tickets SET athlete_id = $2, fullname = $3, id_number = $4, email = $5, phone = $6,
    gender = $7, birth_date = $8, age = $9, pending_waivers = $10, transfers = $11, updated_at = $12,
    signed_waivers = $13
WHERE id = $1;

-- name: SignTicketWaivers :exec
-- Records the waivers the ticket's athlete signed: they leave pending_waivers.
UPDATE tickets SET pending_waivers = $2, signed_waivers = $3, updated_at = $4 WHERE id = $1;

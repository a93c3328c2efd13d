-- The wipe of an organizer's test data (livemode false only), in one transaction.

-- name: ResetTestPlaces :exec
-- Frees the test places of the events of the organizer's test orders; versions keep growing,
-- so the places event that follows supersedes every earlier one.
UPDATE places SET confirmed = 0, held = 0, version = version + 1
WHERE NOT livemode AND confirmed + held > 0
  AND event_id IN (SELECT DISTINCT event_id FROM orders WHERE organizer_id = $1 AND NOT livemode);

-- name: TestPlacesOfOrganizer :many
SELECT p.category_id, p.event_id FROM places p
WHERE NOT p.livemode
  AND p.event_id IN (SELECT DISTINCT event_id FROM orders WHERE organizer_id = $1 AND NOT livemode);

-- name: DeleteTestReceiptMails :exec
DELETE FROM receipt_mails WHERE NOT livemode
  AND event_id IN (SELECT DISTINCT event_id FROM orders WHERE organizer_id = $1 AND NOT livemode);

-- name: DeleteTestTickets :execrows
DELETE FROM tickets WHERE organizer_id = $1 AND NOT livemode;

-- name: DeleteTestRegistrations :execrows
DELETE FROM registrations WHERE organizer_id = $1 AND NOT livemode;

-- name: DeleteTestOrders :execrows
DELETE FROM orders WHERE organizer_id = $1 AND NOT livemode;

-- name: DeleteTestDeletedTickets :exec
DELETE FROM deleted_tickets WHERE organizer_id = $1 AND NOT livemode;

-- name: DeleteTestReleasedHolds :exec
DELETE FROM released_holds WHERE organizer_id = $1 AND NOT livemode;

-- name: DeleteTestMail :execrows
DELETE FROM test_mail WHERE organizer_id = $1;

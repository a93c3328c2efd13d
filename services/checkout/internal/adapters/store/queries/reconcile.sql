-- name: UnsettledCheckouts :many
-- The checkouts listed sessions name that their outcome could still move: of paid sessions,
-- those not paid or beyond; of the others (expired, or awaiting a delayed payment), those
-- awaiting payment.
SELECT * FROM checkouts
WHERE livemode = sqlc.arg(livemode) AND ((id = ANY(sqlc.arg(paid)::text[])
       AND state NOT IN ('PAID', 'COMPLETED', 'REFUND_PENDING', 'REFUND_FAILED', 'REFUNDED_NO_PLACE', 'REFUNDED_NO_PROMOCODE'))
   OR (id = ANY(sqlc.arg(unpaid)::text[]) AND state IN ('HELD', 'OPEN', 'PROCESSING')));

-- name: ReconcileMark :one
SELECT sessions_from FROM reconcile_mark WHERE livemode = $1;

-- name: SetReconcileMark :exec
INSERT INTO reconcile_mark (livemode, sessions_from) VALUES ($1, $2)
ON CONFLICT (livemode) DO UPDATE SET sessions_from = EXCLUDED.sessions_from;

-- name: ProcessingCheckouts :many
-- A page of the checkouts awaiting a delayed payment, by id after the given one.
SELECT * FROM checkouts WHERE state = 'PROCESSING' AND livemode = sqlc.arg(livemode) AND id > sqlc.arg(after)::text
ORDER BY id LIMIT sqlc.arg(max_rows);

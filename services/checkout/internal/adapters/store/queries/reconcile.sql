-- name: UnsettledCheckouts :many
-- The checkouts listed sessions name that their outcome could still move: of paid sessions,
-- those not paid or beyond; of the others (expired, or awaiting a delayed payment), those
-- awaiting payment.
SELECT * FROM checkouts
WHERE (id = ANY(sqlc.arg(paid)::text[])
       AND state NOT IN ('PAID', 'COMPLETED', 'REFUND_PENDING', 'REFUND_FAILED', 'REFUNDED_NO_PLACE', 'REFUNDED_NO_PROMOCODE'))
   OR (id = ANY(sqlc.arg(unpaid)::text[]) AND state IN ('HELD', 'OPEN', 'PROCESSING'));

-- name: ReconcileMark :one
SELECT sessions_from FROM reconcile_mark;

-- name: SetReconcileMark :exec
INSERT INTO reconcile_mark (sessions_from) VALUES ($1)
ON CONFLICT (id) DO UPDATE SET sessions_from = EXCLUDED.sessions_from;

-- name: ProcessingCheckouts :many
-- The checkouts awaiting a delayed payment, the longest waiting first.
SELECT * FROM checkouts WHERE state = 'PROCESSING' ORDER BY updated_at;

-- Registration creates as the registration service writes them, for pgbench: each transaction
-- stores :batch creates (the service combines concurrent creates into one transaction), each an
-- order with its registration and athlete ticket, takes the categories' places with the same
-- conditional upsert, writes one places event per category to the outbox (topic
-- bench.pgbench.v1) and notifies the relay. pgbench -D batch=N -D categories=M sets the creates
-- per transaction and how many categories they spread over.
\set c random(0, :categories - 1)
BEGIN;
WITH n AS (
    SELECT g, md5(random()::text) AS id, 'cat_pgb' || ((:c + g) % :categories) AS category
    FROM generate_series(1, :batch) AS g
), o AS (
    INSERT INTO orders (id, organizer_id, event_id, status, source, amount, currency, purchaser_email,
                        purchaser_name, created_at, updated_at)
    SELECT 'ord_pgb' || n.id, 'org_pgbench', 'evt_pgbench', 'COMPLETED', 'MANUAL', 0, 'EUR',
           'ana@example.com', 'Ana Garcia', now(), now()
    FROM n
), r AS (
    INSERT INTO registrations (id, organizer_id, event_id, category_id, category_name, order_id, team_name,
                               custom_fields, supplement_selections, created_at, updated_at)
    SELECT 'reg_pgb' || n.id, 'org_pgbench', 'evt_pgbench', n.category, n.category, 'ord_pgb' || n.id,
           'Ana Garcia', '[]', '[]', now(), now()
    FROM n
)
INSERT INTO tickets (id, athlete_id, organizer_id, registration_id, order_id, position, status, fullname,
                     id_number, email, phone, gender, birth_date, age, event_id, category_id, category_name,
                     team_name, checked_in, participant_status, order_status, order_amount, created_at, updated_at)
SELECT 'tkt_pgb' || n.id, 'ath_pgb' || n.id, 'org_pgbench', 'reg_pgb' || n.id, 'ord_pgb' || n.id, 0,
       'ACTIVE', 'Ana Garcia', '12345678Z', 'ana@example.com', '+34600000000', 'FEMALE', '1990-01-01', 36,
       'evt_pgbench', n.category, n.category, 'Ana Garcia', false, 'CONFIRMED', 'COMPLETED', 0, now(), now()
FROM n;
INSERT INTO places AS p (category_id, event_id, confirmed, held, quota, version)
SELECT 'cat_pgb' || ((:c + g) % :categories), 'evt_pgbench', count(*), 0, 1000000000, 1
FROM generate_series(1, :batch) AS g
GROUP BY 1
ORDER BY 1
ON CONFLICT (category_id) DO UPDATE
    SET confirmed = p.confirmed + excluded.confirmed, held = p.held + excluded.held,
        quota = excluded.quota, version = p.version + 1
    WHERE p.confirmed + p.held + excluded.confirmed + excluded.held <= excluded.quota;
INSERT INTO outbox (topic, key, payload, headers)
SELECT DISTINCT 'bench.pgbench.v1', 'cat_pgb' || ((:c + g) % :categories),
       convert_to('{"confirmed":1,"held":0,"version":1}', 'UTF8'), '{"ce_type":"podium.bench.places.v1"}'::jsonb
FROM generate_series(1, :batch) AS g;
SELECT pg_notify('outbox_enqueued', '');
COMMIT;

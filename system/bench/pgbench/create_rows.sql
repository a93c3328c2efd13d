-- Rows of the creates of pgbench/create.sql, made once before it runs: for each category offset c
-- (a transaction's creates go round the categories from its own), the JSON arrays of the
-- orders, registrations and tickets of :batch creates, as the service builds them in Go, with ~
-- where each transaction puts its own ids (and so e-mails and id numbers as unique as the
-- bench's, names and clubs as varied, which the search index costs more to keep), and the
-- places they take, with their (category, mode) keys. Run it with the same -D batch and categories:
--   pgbench -n -t 1 -f create_rows.sql -D batch=16 -D categories=100 <registration db url>
DROP TABLE IF EXISTS pgbench_creates;
CREATE TABLE pgbench_creates (c int PRIMARY KEY, orders text NOT NULL, registrations text NOT NULL, tickets text NOT NULL, takes text NOT NULL, keys text NOT NULL);
INSERT INTO pgbench_creates (c, orders, registrations, tickets, takes, keys)
SELECT c,
    (SELECT json_agg(json_build_object(
        'id', 'ord_pgb' || '~' || '_' || g, 'organizer_id', 'org_pgbench', 'event_id', 'evt_pgbench',
        'status', 'COMPLETED', 'source', 'MANUAL', 'hold_id', NULL, 'amount', 0, 'currency', 'EUR',
        'purchaser_email', NULL, 'purchaser_name', NULL, 'promocode', NULL, 'expires_at', NULL,
        'paid_at', '2026-11-26T06:00:00Z'::timestamptz, 'created_at', '2026-11-26T06:00:00Z'::timestamptz, 'updated_at', '2026-11-26T06:00:00Z'::timestamptz, 'client_network', NULL, 'livemode', true))
    FROM generate_series(1, :batch) AS g)::text AS orders,
    (SELECT json_agg(json_build_object(
        'id', 'reg_pgb' || '~' || '_' || g, 'organizer_id', 'org_pgbench', 'event_id', 'evt_pgbench',
        'category_id', 'cat_pgb' || ((c + g) % :categories), 'category_name', 'Category',
        'order_id', 'ord_pgb' || '~' || '_' || g, 'team_name', 'Team ' || g,
        'club', (ARRAY['CrossFit Madrid ','CrossFit Valencia ','CrossFit Sevilla ','CrossFit Bilbao ','CrossFit Málaga '])[1 + (c + g) % 5] || ((c * 11 + g) % 30), 'bib', NULL,
        'note', NULL, 'checked_in_at', '[]'::json, 'custom_fields', '[]'::json, 'supplement_ids', '[]'::json,
        'supplement_selections', '[]'::json, 'waivers_accepted', NULL, 'pending_participants', 0,
        'cancelled_at', NULL, 'created_at', '2026-11-26T06:00:00Z'::timestamptz, 'updated_at', '2026-11-26T06:00:00Z'::timestamptz, 'guest_email', NULL, 'guest_name', NULL, 'livemode', true))
    FROM generate_series(1, :batch) AS g)::text AS registrations,
    (SELECT json_agg(json_build_object(
        'id', 'tkt_pgb' || '~' || '_' || g, 'athlete_id', 'ath_pgb' || '~' || '_' || g,
        'organizer_id', 'org_pgbench', 'registration_id', 'reg_pgb' || '~' || '_' || g,
        'order_id', 'ord_pgb' || '~' || '_' || g, 'position', 0, 'status', 'ACTIVE', 'cancelled_at', NULL,
        'fullname', (ARRAY['Ana','Bruno','Carla','Darío','Elena','Fran','Gala','Hugo','Irene','Jorge'])[1 + (c * 7 + g) % 10] || ' ' || (ARRAY['García','Martínez','López','Sánchez','Pérez','Gómez','Martín','Jiménez','Ruiz','Hernández','Díaz','Moreno','Muñoz'])[1 + (c * 3 + g * 5) % 13],
        'id_number', 'ID~' || g, 'email', 'athlete~' || g || '@bench.example', 'phone', '+34600000000',
        'gender', 'FEMALE', 'birth_date', '1990-01-01', 'age', 37, 'event_id', 'evt_pgbench',
        'category_id', 'cat_pgb' || ((c + g) % :categories), 'category_name', 'Category', 'team_name', 'Team ' || g,
        'club', (ARRAY['CrossFit Madrid ','CrossFit Valencia ','CrossFit Sevilla ','CrossFit Bilbao ','CrossFit Málaga '])[1 + (c + g) % 5] || ((c * 11 + g) % 30), 'bib', NULL, 'checked_in', false, 'participant_status', 'READY', 'order_status', 'COMPLETED',
        'order_amount', 0, 'custom_values', '{}'::json, 'supplement_keys', '[]'::json,
        'created_at', '2026-11-26T06:00:00Z'::timestamptz, 'updated_at', '2026-11-26T06:00:00Z'::timestamptz, 'livemode', true))
    FROM generate_series(1, :batch) AS g)::text AS tickets,
    (SELECT json_agg(json_build_object('category_id', category, 'livemode', true, 'event_id', 'evt_pgbench', 'confirmed', n, 'held', 0, 'quota', 1000000000))
    FROM (SELECT 'cat_pgb' || ((c + g) % :categories) AS category, count(*) AS n FROM generate_series(1, :batch) AS g GROUP BY 1) AS t)::text AS takes,
    (SELECT json_agg(json_build_object('category_id', category, 'livemode', true))
    FROM (SELECT DISTINCT 'cat_pgb' || ((c + g) % :categories) AS category FROM generate_series(1, :batch) AS g) AS t)::text AS keys
FROM generate_series(0, :categories - 1) AS c;

-- Registration creates as the registration service writes them, for pgbench (-M prepared, which
-- pipelines need): each transaction stores :batch creates, as the service combines concurrent
-- creates into one transaction (services/registration/internal/adapters/store/combiner.go). It
-- reads the places taken in the categories (theirs have quotas), then sends one pipeline that
-- runs as one implicit transaction: an order, a registration and an athlete's ticket per
-- create, each table with one statement over a JSON array of rows, the places of every category
-- taken with one statement under the ledger's quota constraint, one places event for the event
-- written to the outbox (topic bench.pgbench.v1, relayed like the service's) and the relay
-- notified. The service builds the JSON arrays in Go; this script takes them, with ids of its
-- own in place of ~, from pgbench_creates, which create_rows.sql makes first with the same
-- -D batch=N (creates per transaction) and -D categories=M (how many categories they go round):
--   pgbench -n -t 1 -f create_rows.sql -D batch=16 -D categories=100 <registration db url>
--   pgbench -n -M prepared -f create.sql -D batch=16 -D categories=100 -c 8 -j 2 -T 8 <url>
\set c random(0, :categories - 1)
\set r1 random(1, 1000000000)
\set r2 random(1, 1000000000)
SELECT p.* FROM places p
JOIN json_to_recordset((SELECT keys FROM pgbench_creates WHERE c = :c)::json) AS k (category_id text, livemode boolean)
  ON k.category_id = p.category_id AND k.livemode = p.livemode;
\startpipeline
INSERT INTO orders (
    id, organizer_id, event_id, status, source, hold_id, amount, currency, purchaser_email,
    purchaser_name, promocode, expires_at, paid_at, created_at, updated_at, client_network, livemode
)
SELECT id, organizer_id, event_id, status, source, hold_id, amount, currency, purchaser_email,
    purchaser_name, promocode, expires_at, paid_at, created_at, updated_at, client_network, livemode
FROM json_populate_recordset(NULL::orders, (SELECT replace(orders, '~', :r1 || '_' || :r2) FROM pgbench_creates WHERE c = :c)::json);
INSERT INTO registrations (
    id, organizer_id, event_id, category_id, category_name, order_id, team_name, club, bib, note,
    checked_in_at, custom_fields, supplement_ids, supplement_selections, waivers_accepted,
    pending_participants, cancelled_at, created_at, updated_at, guest_email, guest_name, livemode
)
SELECT id, organizer_id, event_id, category_id, category_name, order_id, team_name, club, bib, note,
    checked_in_at, custom_fields, supplement_ids, supplement_selections, waivers_accepted,
    pending_participants, cancelled_at, created_at, updated_at, guest_email, guest_name, livemode
FROM json_populate_recordset(NULL::registrations, (SELECT replace(registrations, '~', :r1 || '_' || :r2) FROM pgbench_creates WHERE c = :c)::json);
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
FROM json_populate_recordset(NULL::tickets, (SELECT replace(tickets, '~', :r1 || '_' || :r2) FROM pgbench_creates WHERE c = :c)::json);
INSERT INTO places AS p (category_id, livemode, event_id, confirmed, held, quota, version)
SELECT t.category_id, t.livemode, t.event_id, t.confirmed, t.held, t.quota, 1
FROM json_to_recordset((SELECT takes FROM pgbench_creates WHERE c = :c)::json) AS t (category_id text, livemode boolean, event_id text, confirmed int, held int, quota int)
ORDER BY t.category_id, t.livemode
ON CONFLICT (category_id, livemode) DO UPDATE
    SET confirmed = p.confirmed + excluded.confirmed, held = p.held + excluded.held,
        quota = excluded.quota, version = p.version + 1;
INSERT INTO outbox (topic, key, payload, headers)
SELECT 'bench.pgbench.v1', p.event_id,
       convert_to(json_build_object(
           'eventId', p.event_id,
           'livemode', p.livemode,
           'categories', json_agg(json_build_object(
               'categoryId', p.category_id, 'confirmed', p.confirmed, 'held', p.held, 'version', p.version)
               ORDER BY p.category_id),
           'occurredAt', now()::text)::text, 'UTF8'),
       m.headers
FROM places p
JOIN json_to_recordset((SELECT keys FROM pgbench_creates WHERE c = :c)::json) AS k (category_id text, livemode boolean)
  ON k.category_id = p.category_id AND k.livemode = p.livemode
JOIN json_to_recordset('[{"event_id": "evt_pgbench", "livemode": true, "headers": {"ce_type": "podium.bench.places.v2"}}]') AS m (event_id text, livemode boolean, headers jsonb)
  ON m.event_id = p.event_id AND m.livemode = p.livemode
GROUP BY p.event_id, p.livemode, m.headers;
SELECT pg_notify('outbox_enqueued', '');
\endpipeline

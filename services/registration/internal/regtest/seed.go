package regtest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
)

// FirstNames and LastNames make the seeded athletes' names.
var (
	FirstNames = []string{"Ana", "Bruno", "Carla", "Dario", "Elena", "Fran", "Gala", "Hugo", "Irene", "Jorge", "Lucia", "Mario", "Nuria", "Oscar", "Paula", "Raul", "Sara", "Tomas", "Vera", "Xavi"}
	LastNames  = []string{"García", "Martínez", "López", "Sánchez", "Pérez", "Gómez", "Martín", "Jiménez", "Ruiz", "Hernández", "Díaz", "Moreno", "Muñoz", "Álvarez", "Romero", "Alonso", "Gutiérrez", "Navarro", "Torres", "Domínguez",
		"Vázquez", "Ramos", "Gil", "Ramírez", "Serrano", "Blanco", "Molina", "Morales", "Suárez", "Ortega", "Delgado", "Castro", "Ortiz", "Rubio", "Marín", "Sanz", "Núñez", "Iglesias", "Medina", "Garrido"}
)

// Seed stores n one-athlete COMPLETED registrations (one order and one ticket each) of org
// with SQL, spread over 5 events (evt_s0..evt_s4) of 4 categories each, with varied names,
// clubs, genders, ages 18-60, custom values, supplements, bibs, check-ins and 5 % of them
// cancelled. It is how the search benchmark gets 100,000 tickets in seconds; the rows have
// the shape the repository writes.
func Seed(t testing.TB, pool *pgxpool.Pool, org string, n int) {
	t.Helper()
	quote := func(list []string) string {
		q := make([]string, len(list))
		for i, s := range list {
			q[i] = "'" + strings.ReplaceAll(s, "'", "''") + "'"
		}
		return "ARRAY[" + strings.Join(q, ",") + "]"
	}
	sql := fmt.Sprintf(`
WITH g AS (
  SELECT i,
    (%[2]s)[1 + i %% %[3]d] || ' ' || (%[4]s)[1 + (i / 7) %% %[5]d] AS fullname,
    'evt_s' || (i %% 5) AS event_id,
    'cat_s' || (i %% 5) || '_' || ((i / 5) %% 4) AS category_id,
    CASE WHEN i %% 2 = 0 THEN 'FEMALE' ELSE 'MALE' END AS gender,
    18 + (i * 7919) %% 43 AS age,
    timestamptz '2026-01-01' + make_interval(secs => i * 13) AS created_at,
    i %% 20 = 0 AS cancelled
  FROM generate_series(1, %[6]d) AS i
), o AS (
  INSERT INTO orders (id, organizer_id, event_id, status, source, amount, currency, paid_at, created_at, updated_at)
  SELECT 'ord_s' || i, $1, event_id, 'COMPLETED', 'MANUAL', (i %% 9) * 1000, 'EUR', created_at, created_at, created_at FROM g
  RETURNING 1
), r AS (
  INSERT INTO registrations (id, organizer_id, event_id, category_id, category_name, order_id, team_name, club, bib,
      checked_in_at, custom_fields, supplement_ids, cancelled_at, created_at, updated_at)
  SELECT 'reg_s' || i, $1, event_id, category_id, 'Category ' || ((i / 5) %% 4), 'ord_s' || i, 'Team ' || fullname,
      'Club ' || (i %% 300), CASE WHEN cancelled THEN NULL ELSE i END,
      CASE WHEN i %% 3 = 0 THEN ARRAY[created_at] ELSE '{}' END,
      jsonb_build_array(jsonb_build_object('fieldId', 'fld_size', 'value', (ARRAY['S','M','L'])[1 + i %% 3])),
      CASE WHEN i %% 4 = 0 THEN ARRAY['sup_tee'] ELSE '{}' END,
      CASE WHEN cancelled THEN created_at + interval '1 day' END, created_at, created_at
  FROM g RETURNING 1
)
INSERT INTO tickets (id, athlete_id, organizer_id, registration_id, order_id, position, status, cancelled_at,
    fullname, id_number, email, phone, gender, birth_date, age, event_id, category_id, category_name, team_name, club,
    bib, checked_in, participant_status, order_status, order_amount, custom_values, supplement_keys, created_at, updated_at)
SELECT 'tkt_s' || i, 'ath_s' || i, $1, 'reg_s' || i, 'ord_s' || i, 0,
    CASE WHEN cancelled THEN 'CANCELLED' ELSE 'ACTIVE' END, CASE WHEN cancelled THEN created_at + interval '1 day' END,
    fullname, 'DNI' || (10000000 + i), lower(replace(fullname, ' ', '.')) || i || '@example.com', '+34600' || (100000 + i),
    gender, date '2027-06-12' - make_interval(years => age), age, event_id, category_id, 'Category ' || ((i / 5) %% 4),
    'Team ' || fullname, 'Club ' || (i %% 300), CASE WHEN cancelled THEN NULL ELSE i END, i %% 3 = 0, 'READY', 'COMPLETED',
    (i %% 9) * 1000, jsonb_build_object('fld_size', (ARRAY['S','M','L'])[1 + i %% 3]),
    CASE WHEN i %% 4 = 0 THEN ARRAY['sup_tee'] ELSE '{}' END, created_at, created_at
FROM g`, "", quote(FirstNames), len(FirstNames), quote(LastNames), len(LastNames), n)
	if _, err := pool.Exec(t.Context(), sql, org); err != nil {
		t.Fatalf("seed: %v", err)
	}
	if _, err := pool.Exec(t.Context(), "VACUUM ANALYZE tickets"); err != nil {
		t.Fatalf("analyze: %v", err)
	}
}

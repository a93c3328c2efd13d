package store_test

import (
	"testing"

	"github.com/podiumhq/podium/libs/postgres"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/catalog/migrations"
)

// TestPlacesCountedBeforeTestModeAreLive: the places stored before the livemode column are
// live; a category then has a row per mode, and every insert must state its mode.
func TestPlacesCountedBeforeTestModeAreLive(t *testing.T) {
	url := testkit.DatabaseURL(t, testkit.MigrationsBefore(t, migrations.Set(), "00003_"))
	pool, err := postgres.Connect(t.Context(), url, postgres.Options{MaxConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	if _, err := pool.Exec(t.Context(), `INSERT INTO category_places VALUES ('cat_old', 'evt_old', 7, 1, 3, now())`); err != nil {
		t.Fatal(err)
	}
	if err := postgres.Migrate(t.Context(), url, testkit.Discard(), migrations.Set()); err != nil {
		t.Fatal(err)
	}
	var live bool
	if err := pool.QueryRow(t.Context(), `SELECT livemode FROM category_places WHERE category_id = 'cat_old'`).Scan(&live); err != nil || !live {
		t.Fatalf("the old row: livemode %t, %v", live, err)
	}
	if _, err := pool.Exec(t.Context(), `INSERT INTO category_places (category_id, livemode, event_id, confirmed, held, version, updated_at)
		VALUES ('cat_old', false, 'evt_old', 1, 0, 1, now())`); err != nil {
		t.Fatalf("a test row beside the live one: %v", err)
	}
	if _, err := pool.Exec(t.Context(), `INSERT INTO category_places (category_id, event_id, confirmed, held, version, updated_at)
		VALUES ('cat_new', 'evt_old', 1, 0, 1, now())`); err == nil {
		t.Fatal("a row without its mode was stored")
	}
}

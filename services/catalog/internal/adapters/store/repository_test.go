package store_test

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/services/catalog/internal/adapters/store"
	"github.com/podiumhq/podium/services/catalog/internal/app"
	"github.com/podiumhq/podium/services/catalog/internal/catalogtest"
	"github.com/podiumhq/podium/services/catalog/internal/domain"
	"github.com/podiumhq/podium/services/catalog/internal/importfile"
)

var t0 = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

func parse(t *testing.T, yaml string) domain.Event {
	t.Helper()
	e, err := importfile.Parse(importfile.YAML, []byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// importAt imports yaml for org at the given time, as app.Service.Import does.
func importAt(t *testing.T, repo *store.Repository, org, yaml string, at time.Time) (domain.Event, bool, error) {
	t.Helper()
	draft := parse(t, yaml)
	var changed bool
	e, err := repo.Import(t.Context(), org, draft.ExternalID, func(cur *domain.Event) (domain.Event, []domain.Message, error) {
		merged, c, err := domain.Merge(cur, draft, org, at)
		changed = c
		if err != nil || !c {
			return merged, nil, err
		}
		m, err := app.EventChangedMessage(merged, at)
		return merged, []domain.Message{m}, err
	})
	return e, changed, err
}

func noAnnouncement(before, after domain.Event) ([]domain.Message, error) { return nil, nil }

func mustImport(t *testing.T, repo *store.Repository, org, yaml string) domain.Event {
	t.Helper()
	e, _, err := importAt(t, repo, org, yaml, t0)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func count(t *testing.T, pool *pgxpool.Pool, sql string, args ...any) int {
	t.Helper()
	var n int
	if err := pool.QueryRow(t.Context(), sql, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestImportCreatesAndReadsBack(t *testing.T) {
	ctx := t.Context()
	pool := catalogtest.Pool(t)
	repo := store.New(pool)
	created := mustImport(t, repo, "org_1", catalogtest.Demo(t, "summer-throwdown"))
	got, err := repo.Event(ctx, domain.ForOrganizer("org_1"), created.ID)
	if err != nil {
		t.Fatal(err)
	}
	// What is read back is what was stored, field for field.
	a, _ := json.Marshal(created)
	b, _ := json.Marshal(got)
	if string(a) != string(b) {
		t.Fatalf("read back differs:\nstored %s\nread   %s", a, b)
	}
	if byExt, err := repo.EventByExternalID(ctx, "org_1", "summer-throwdown"); err != nil || byExt.ID != created.ID {
		t.Fatalf("by external id: %v", err)
	}
	if _, err := repo.EventByExternalID(ctx, "org_2", "summer-throwdown"); !errors.Is(err, fault.ErrNotFound) {
		t.Fatalf("another organizer's external id: %v", err)
	}
	if n := count(t, pool, `SELECT count(*) FROM outbox WHERE key = $1 AND headers->>'ce_type' = $2`, created.ID, domain.EventChangedType); n != 1 {
		t.Fatalf("%d event-changed messages after the creation, want 1", n)
	}
	var payload []byte
	if err := pool.QueryRow(ctx, `SELECT payload FROM outbox WHERE key = $1`, created.ID).Scan(&payload); err != nil {
		t.Fatal(err)
	}
	var m struct {
		EventID, OrganizerID string
		Version              int64
		Object               struct{ ID string }
	}
	if err := json.Unmarshal(payload, &m); err != nil || m.EventID != created.ID || m.OrganizerID != "org_1" || m.Version != 1 || m.Object.ID != created.ID {
		t.Fatalf("message %s", payload)
	}
}

// TestReadsSeeTheirOrganizersEventsOnly: a read by event or category id sees the events of
// the organizer its scope names; another organizer, an empty organizer id and the zero scope
// see none, as if the event did not exist.
func TestReadsSeeTheirOrganizersEventsOnly(t *testing.T) {
	ctx := t.Context()
	repo := store.New(catalogtest.Pool(t))
	e := mustImport(t, repo, "org_1", catalogtest.Demo(t, "summer-throwdown"))
	cat := e.Categories[0].ID
	if got, err := repo.Event(ctx, domain.ForOrganizer("org_1"), e.ID); err != nil || got.ID != e.ID {
		t.Fatalf("the organizer's own event: %v", err)
	}
	if got, err := repo.EventOfCategory(ctx, domain.ForOrganizer("org_1"), cat); err != nil || got.ID != e.ID {
		t.Fatalf("the organizer's own category: %v", err)
	}
	for name, scope := range map[string]domain.OrganizerScope{
		"another organizer": domain.ForOrganizer("org_2"), "an empty organizer id": domain.ForOrganizer(""), "the zero scope": {},
	} {
		if _, err := repo.Event(ctx, scope, e.ID); err == nil || err.Error() != "event "+e.ID+" not found" {
			t.Errorf("%s read the event: %v", name, err)
		}
		if _, err := repo.EventOfCategory(ctx, scope, cat); err == nil || err.Error() != "category "+cat+" not found" {
			t.Errorf("%s read the event of a category: %v", name, err)
		}
	}
}

func TestImportIsIdempotentAndUpdatesByKey(t *testing.T) {
	ctx := t.Context()
	pool := catalogtest.Pool(t)
	repo := store.New(pool)
	file := catalogtest.Demo(t, "summer-throwdown")
	first := mustImport(t, repo, "org_1", file)

	again, changed, err := importAt(t, repo, "org_1", file, t0.Add(time.Hour))
	if err != nil || changed || again.Version != 1 || !again.UpdatedAt.Equal(first.UpdatedAt) {
		t.Fatalf("identical import: %v changed %v version %d", err, changed, again.Version)
	}
	if n := count(t, pool, `SELECT count(*) FROM outbox`); n != 1 {
		t.Fatalf("an unchanged import wrote a message (%d in the outbox)", n)
	}

	// Remove a sponsor, a tier, a supplement option and a category; change a waiver's text.
	edited := strings.Replace(file, "sponsors:\n  - key: barbell-co\n    name: Barbell & Co\n    logoUrl: https://cdn.example.com/sponsors/barbell-co.png\n    websiteUrl: https://barbell.example.com\n", "", 1)
	edited = strings.Replace(edited, "      - key: regular\n        name: Regular\n        price: 7500\n        from: 2027-02-01\n        until: 2027-05-01\n", "", 1)
	edited = strings.Replace(edited, "      - {key: l, name: L, price: 1500}\n", "", 1)
	edited = strings.Replace(edited, "    text: |\n      I take part at my own risk", "    text: |\n      I, the athlete, take part at my own risk", 1)
	i, j := strings.Index(edited, "  - key: masters-invitational"), strings.Index(edited, "formFields:")
	edited = edited[:i] + "\n" + edited[j:]
	edited = strings.Replace(edited, "    categories: [masters-invitational]\n", "", 1)
	second, changed, err := importAt(t, repo, "org_1", edited, t0.Add(2*time.Hour))
	if err != nil || !changed || second.Version != 2 || second.ID != first.ID || second.PreviewToken != first.PreviewToken {
		t.Fatalf("update: %v changed %v version %d", err, changed, second.Version)
	}
	stored, _ := repo.Event(ctx, domain.ForOrganizer("org_1"), first.ID)
	if len(stored.Sponsors) != 0 || len(stored.Categories) != 2 || len(stored.Categories[0].Tiers) != 1 || len(stored.Supplements[0].Options) != 3 {
		t.Fatalf("absent items were not removed: sponsors %d categories %d tiers %d options %d",
			len(stored.Sponsors), len(stored.Categories), len(stored.Categories[0].Tiers), len(stored.Supplements[0].Options))
	}
	if stored.Categories[0].ID != first.Categories[0].ID || stored.Categories[0].Tiers[0].ID != first.Categories[0].Tiers[0].ID ||
		stored.Supplements[0].Options[2].ID != first.Supplements[0].Options[3].ID || stored.FormFields[0].ID != first.FormFields[0].ID {
		t.Fatal("kept items changed ids")
	}
	if stored.Waivers[0].Version != 2 || stored.Waivers[1].Version != 1 || stored.Waivers[0].ID != first.Waivers[0].ID {
		t.Fatalf("waiver versions %d %d, want 2 (text changed) and 1", stored.Waivers[0].Version, stored.Waivers[1].Version)
	}
	if n := count(t, pool, `SELECT count(*) FROM waiver_versions WHERE waiver_id = $1`, first.Waivers[0].ID); n != 2 {
		t.Fatalf("%d stored versions of the changed waiver, want 2", n)
	}
	if n := count(t, pool, `SELECT count(*) FROM waiver_versions WHERE waiver_id = $1`, first.Waivers[1].ID); n != 1 {
		t.Fatalf("%d stored versions of the unchanged waiver, want 1", n)
	}
	if n := count(t, pool, `SELECT count(*) FROM outbox WHERE convert_from(payload, 'UTF8') LIKE '%"version":2%'`); n != 1 {
		t.Fatal("the update wrote no message with version 2")
	}
}

func TestImportRefusesRemovingACategoryWithPlaces(t *testing.T) {
	ctx := t.Context()
	pool := catalogtest.Pool(t)
	repo := store.New(pool)
	file := catalogtest.Event("e1", "E", "PUBLISHED", false, "categories:\n  - {key: a, name: A, basePrice: 1}\n  - {key: b, name: B, basePrice: 1}")
	e := mustImport(t, repo, "org_1", file)
	if _, err := repo.ApplyPlaces(ctx, domain.PlacesChangedV1{EventID: e.ID, CategoryID: e.Categories[1].ID, Confirmed: 0, Held: 1, Version: 1}.Current(), t0, noAnnouncement); err != nil {
		t.Fatal(err)
	}
	without := catalogtest.Event("e1", "E", "PUBLISHED", false, "categories:\n  - {key: a, name: A, basePrice: 1}")
	_, _, err := importAt(t, repo, "org_1", without, t0)
	ce, ok := fault.Of(err)
	if !ok || ce.Kind != fault.Conflict || !strings.Contains(ce.Problems[0], `category "b"`) || !strings.Contains(ce.Problems[0], "published: false") {
		t.Fatalf("error %v", err)
	}
	if stored, _ := repo.Event(ctx, domain.ForOrganizer("org_1"), e.ID); len(stored.Categories) != 2 || stored.Version != 1 {
		t.Fatal("the refused import changed the event")
	}
	// Hiding it instead is accepted, and keeps its places.
	hidden := catalogtest.Event("e1", "E", "PUBLISHED", false, "categories:\n  - {key: a, name: A, basePrice: 1}\n  - {key: b, name: B, basePrice: 1, published: false}")
	if got, _, err := importAt(t, repo, "org_1", hidden, t0); err != nil || got.Categories[1].Places.Held != 1 {
		t.Fatalf("hiding the category: %v", err)
	}
	// Once its places are released it can go.
	if _, err := repo.ApplyPlaces(ctx, domain.PlacesChangedV1{EventID: e.ID, CategoryID: e.Categories[1].ID, Version: 2}.Current(), t0, noAnnouncement); err != nil {
		t.Fatal(err)
	}
	if _, _, err := importAt(t, repo, "org_1", without, t0); err != nil {
		t.Fatalf("removing a category without places: %v", err)
	}
}

// TestConcurrentFirstImports checks that simultaneous first imports of one event create it
// once: the (organizer, external id) lock serialises them and the others see it created.
func TestConcurrentFirstImports(t *testing.T) {
	pool := catalogtest.Pool(t)
	repo := store.New(pool)
	file := catalogtest.Event("same", "Same", "DRAFT", false)
	var wg sync.WaitGroup
	ids := make([]string, 8)
	errs := make([]error, 8)
	for i := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e, _, err := importAt(t, repo, "org_1", file, t0)
			ids[i], errs[i] = e.ID, err
		}()
	}
	wg.Wait()
	for i := range ids {
		if errs[i] != nil || ids[i] != ids[0] {
			t.Fatalf("import %d: %v, id %q vs %q", i, errs[i], ids[i], ids[0])
		}
	}
	if n := count(t, pool, `SELECT count(*) FROM events`); n != 1 {
		t.Fatalf("%d events", n)
	}
}

func TestPlacesKeepTheHighestVersion(t *testing.T) {
	ctx := t.Context()
	pool := catalogtest.Pool(t)
	repo := store.New(pool)
	e := mustImport(t, repo, "org_1", catalogtest.Event("e1", "E", "PUBLISHED", false, "categories:\n  - {key: a, name: A, basePrice: 1}"))
	cat := e.Categories[0].ID
	steps := []struct {
		version         int64
		confirmed, held int
		applied         bool
	}{
		{5, 3, 1, true},
		{5, 9, 9, false}, // duplicate version
		{3, 1, 0, false}, // older, arriving late
		{7, 4, 0, true},
		{6, 8, 8, false},
	}
	for _, s := range steps {
		applied, err := repo.ApplyPlaces(ctx, domain.PlacesChangedV1{EventID: e.ID, CategoryID: cat, Confirmed: s.confirmed, Held: s.held, Version: s.version}.Current(), t0, noAnnouncement)
		if err != nil || applied != s.applied {
			t.Fatalf("version %d: applied %v, %v; want %v", s.version, applied, err, s.applied)
		}
	}
	got, _ := repo.Event(ctx, domain.ForOrganizer("org_1"), e.ID)
	if p := got.Categories[0].Places; p != (domain.Places{Confirmed: 4, Held: 0, Version: 7}) {
		t.Fatalf("places %+v, want version 7's counts", p)
	}
	// A category unknown to the catalog is recorded too (it may have been removed since).
	if applied, err := repo.ApplyPlaces(ctx, domain.PlacesChangedV1{EventID: e.ID, CategoryID: "cat_gone", Confirmed: 1, Version: 1}.Current(), t0, noAnnouncement); err != nil || !applied {
		t.Fatalf("unknown category: %v", err)
	}
	// Each category of a message is kept or not on its own version.
	both := domain.PlacesChanged{EventID: e.ID, Categories: []domain.CategoryPlaces{
		{CategoryID: cat, Confirmed: 1, Version: 6}, {CategoryID: "cat_gone", Confirmed: 2, Version: 2},
	}}
	if applied, err := repo.ApplyPlaces(ctx, both, t0, noAnnouncement); err != nil || !applied {
		t.Fatalf("a message newer for one of its categories: %v, %v", applied, err)
	}
	var gone int
	if err := pool.QueryRow(ctx, `SELECT confirmed FROM category_places WHERE category_id = 'cat_gone'`).Scan(&gone); err != nil || gone != 2 {
		t.Fatalf("cat_gone %d, %v", gone, err)
	}
	if got, _ := repo.Event(ctx, domain.ForOrganizer("org_1"), e.ID); got.Categories[0].Places.Version != 7 {
		t.Fatalf("an older version of a category was kept: %+v", got.Categories[0].Places)
	}
}

func TestSearch(t *testing.T) {
	ctx := t.Context()
	pool := catalogtest.Pool(t)
	repo := store.New(pool)
	venue := func(name, city string) string { return "venue: {name: " + name + ", city: " + city + "}" }
	on := func(start, file string) string {
		return strings.Replace(strings.Replace(file, "startDate: 2027-06-12", "startDate: "+start, 1), "endDate: 2027-06-13", "endDate: "+start, 1)
	}
	for _, f := range []string{
		on("2027-03-01", catalogtest.Event("c", "Carrera de Montaña", "PUBLISHED", false, venue("Refugio", "Jaca"))),
		on("2027-04-01", catalogtest.Event("a", "Throwdown Valencia", "PUBLISHED", false, venue("Pabellón", "València"))),
		on("2027-05-01", catalogtest.Event("b", "Winter Games", "DRAFT", false, "description: Indoor games in Ávila")),
		on("2027-05-01", catalogtest.Event("d", "Members 100% Open", "PUBLISHED", true, venue("Box_Madrid", "Madrid"))),
		on("2027-06-01", catalogtest.Event("e", "Archived", "ARCHIVED", false)),
	} {
		mustImport(t, repo, "org_1", f)
	}
	mustImport(t, repo, "org_2", catalogtest.Event("x", "Throwdown Valencia", "PUBLISHED", false))
	// b and d start on the same day: their ids decide.
	b, _ := repo.EventByExternalID(ctx, "org_1", "b")
	d, _ := repo.EventByExternalID(ctx, "org_1", "d")
	sameDay := []string{"b", "d"}
	if d.ID < b.ID {
		sameDay = []string{"d", "b"}
	}
	search := func(s domain.Search) ([]string, int64) {
		t.Helper()
		s.OrganizerID = "org_1"
		if s.Limit == 0 {
			s.Limit = 50
		}
		page, err := repo.Search(ctx, s)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, e := range page.Events {
			names = append(names, e.ExternalID)
		}
		return names, page.Total
	}
	cases := []struct {
		name  string
		s     domain.Search
		want  []string
		total int64
	}{
		{"everything, by start date then id", domain.Search{}, append(append([]string{"c", "a"}, sameDay...), "e"), 5},
		{"public only", domain.Search{PublicOnly: true}, []string{"c", "a"}, 2},
		{"status", domain.Search{Status: domain.Draft}, []string{"b"}, 1},
		{"accents and case in the query", domain.Search{Text: "VALÈNCIA"}, []string{"a"}, 1},
		{"accents in the event", domain.Search{Text: "montana"}, []string{"c"}, 1},
		{"description", domain.Search{Text: "avila"}, []string{"b"}, 1},
		{"venue", domain.Search{Text: "pabellon"}, []string{"a"}, 1},
		{"city", domain.Search{Text: "jaca"}, []string{"c"}, 1},
		{"percent is literal", domain.Search{Text: "100%"}, []string{"d"}, 1},
		{"underscore is literal", domain.Search{Text: "bo_"}, nil, 0},
		{"underscore matches itself", domain.Search{Text: "box_m"}, []string{"d"}, 1},
		{"text and public", domain.Search{Text: "members", PublicOnly: true}, nil, 0},
		{"page", domain.Search{Limit: 2, Offset: 1}, []string{"a", sameDay[0]}, 5},
		{"past the end", domain.Search{Limit: 2, Offset: 9007199254740991}, nil, 5},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, total := search(c.s)
			if !slices.Equal(got, c.want) || total != c.total {
				t.Fatalf("got %v (total %d), want %v (total %d)", got, total, c.want, c.total)
			}
		})
	}
}

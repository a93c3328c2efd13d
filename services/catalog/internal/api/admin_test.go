package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/podiumhq/podium/services/catalog/internal/catalogtest"
)

func TestAdminRequiresTheOperatorToken(t *testing.T) {
	env := catalogtest.Start(t, catalogtest.Options{})
	for name, headers := range map[string]map[string]string{
		"none":       nil,
		"wrong":      {"Authorization": "Bearer " + strings.Repeat("x", len(catalogtest.OperatorToken))},
		"not bearer": {"Authorization": "Basic " + catalogtest.OperatorToken},
		"prefix":     {"Authorization": "Bearer " + catalogtest.OperatorToken[:10]},
		"identity":   env.Checkout(t, orgA),
	} {
		t.Run(name, func(t *testing.T) {
			for _, req := range [][2]string{
				{http.MethodGet, "/admin/organizers/" + orgA + "/events"},
				{http.MethodGet, "/admin/organizers/" + orgA + "/events/x"},
				{http.MethodPut, "/admin/organizers/" + orgA + "/events/x"},
				{http.MethodGet, "/admin/import-schema.json"},
			} {
				r := env.Do(t, req[0], req[1], "", headers)
				wantError(t, r, http.StatusUnauthorized, nil)
				if r.Header.Get("WWW-Authenticate") == "" {
					t.Fatal("no WWW-Authenticate header")
				}
			}
		})
	}
}

func TestAdminImport(t *testing.T) {
	env := catalogtest.Start(t, catalogtest.Options{})
	file := catalogtest.Demo(t, "summer-throwdown")
	created := env.ImportRaw(t, orgA, "summer-throwdown", "application/yaml", file)
	if created.Status != http.StatusCreated || created.Header.Get("Catalog-Import-Result") != "created" {
		t.Fatalf("create: %d %s", created.Status, created.Raw)
	}
	e := created.Body
	cat := e["categories"].([]any)[0].(map[string]any)
	tier := cat["tiers"].([]any)[0].(map[string]any)
	if !strings.HasPrefix(e["id"].(string), "evt_") || e["organizerId"] != orgA || e["version"] != 1.0 || cat["key"] != "rx-men" ||
		!strings.HasPrefix(cat["id"].(string), "cat_") || tier["key"] != "early-bird" || tier["until"] != "2027-02-01" || tier["from"] != nil ||
		e["promocodes"].([]any)[0].(map[string]any)["percent"] != 10.0 || e["fees"].([]any)[0].(map[string]any)["percent"] != 2.5 {
		t.Fatalf("created event %s", created.Raw)
	}
	same := env.ImportRaw(t, orgA, "summer-throwdown", "application/x-yaml", file)
	if same.Status != http.StatusOK || same.Header.Get("Catalog-Import-Result") != "unchanged" || same.Body["version"] != 1.0 {
		t.Fatalf("same file again: %d %v", same.Status, same.Header)
	}
	// The same event as JSON is the same event: unchanged.
	jsonFile := toImportJSON(t, file)
	if r := env.ImportRaw(t, orgA, "summer-throwdown", "application/json", jsonFile); r.Status != http.StatusOK || r.Header.Get("Catalog-Import-Result") != "unchanged" {
		t.Fatalf("the JSON form: %d %v %s", r.Status, r.Header, r.Raw)
	}
	updated := env.ImportRaw(t, orgA, "summer-throwdown", "text/yaml", strings.Replace(file, "name: Summer Throwdown", "name: Summer Throwdown 2027", 1))
	if updated.Status != http.StatusOK || updated.Header.Get("Catalog-Import-Result") != "updated" || updated.Body["version"] != 2.0 ||
		updated.Body["id"] != e["id"] || updated.Body["categories"].([]any)[0].(map[string]any)["id"] != cat["id"] {
		t.Fatalf("update: %d %s", updated.Status, updated.Raw)
	}
	got := env.Admin(t, http.MethodGet, "/admin/organizers/"+orgA+"/events/summer-throwdown")
	if got.Status != http.StatusOK || string(got.Raw) != string(updated.Raw) {
		t.Fatalf("get: %d\n%s\nwant\n%s", got.Status, got.Raw, updated.Raw)
	}
	env.Import(t, orgA, catalogtest.Demo(t, "winter-draft"))
	env.Import(t, orgB, catalogtest.Demo(t, "members-only"))
	list := env.Admin(t, http.MethodGet, "/admin/organizers/"+orgA+"/events?limit=1")
	if list.Status != http.StatusOK || list.Body["total"] != 2.0 || len(list.Body["data"].([]any)) != 1 ||
		list.Body["data"].([]any)[0].(map[string]any)["externalId"] != "summer-throwdown" {
		t.Fatalf("list: %s", list.Raw)
	}
	wantError(t, env.Admin(t, http.MethodGet, "/admin/organizers/"+orgA+"/events?limit=0&offset=-1"), http.StatusBadRequest,
		[]any{"limit must be an integer from 1 to 100", "offset must be an integer from 0 to 2147483647"})
	wantError(t, env.Admin(t, http.MethodGet, "/admin/organizers/"+orgB+"/events/summer-throwdown"), http.StatusNotFound, "event summer-throwdown not found")
	if s := env.Admin(t, http.MethodGet, "/admin/import-schema.json"); s.Status != http.StatusOK || s.Body["$id"] == nil ||
		s.Header.Get("Content-Type") != "application/schema+json" {
		t.Fatalf("schema: %d %v", s.Status, s.Header)
	}
}

// toImportJSON converts a YAML event file to the same file in JSON.
func toImportJSON(t *testing.T, yaml string) string {
	t.Helper()
	b, err := yamlToJSON([]byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestAdminImportProblems(t *testing.T) {
	env := catalogtest.Start(t, catalogtest.Options{})
	bad := catalogtest.Event("bad", "Bad", "PUBLISHED", false, `categories:
  - {key: a, name: A, basePrice: 1, gender: ANY}
  - key: b
    name: B
    basePrice: 1
    tiers: [{key: t, price: 1, from: 2027-03-01, until: 2027-02-01}]
promocodes:
  - {key: p, code: early10, percent: 10}`)
	wantError(t, env.ImportRaw(t, orgA, "bad", "application/yaml", bad), http.StatusBadRequest,
		[]any{"categories[0].gender must be one of OPEN, MALE, FEMALE, MIXED"})
	bad = strings.Replace(strings.Replace(bad, "gender: ANY", "gender: OPEN", 1), "Europe/Madrid", "Europe/Madird", 1)
	wantError(t, env.ImportRaw(t, orgA, "bad", "application/yaml", bad), http.StatusBadRequest, []any{
		"categories[1].tiers[0].until must be after from",
		"promocodes[0].code must not contain lowercase letters",
		`timezone "Europe/Madird" is not an IANA time zone`,
	})
	good := catalogtest.Event("good", "Good", "DRAFT", false)
	wantError(t, env.ImportRaw(t, orgA, "other", "application/yaml", good), http.StatusBadRequest,
		[]any{`externalId "good" in the file does not match "other" in the path`})
	wantError(t, env.ImportRaw(t, "acme", "good", "application/yaml", good), http.StatusBadRequest,
		[]any{"organizerId must be an organizer id: org_ followed by letters, digits, '_' or '-'"})
	r := env.ImportRaw(t, orgA, "good", "text/plain", good)
	wantError(t, r, http.StatusUnsupportedMediaType, "the event file must be sent as application/yaml, application/x-yaml, text/yaml or application/json")
	wantError(t, env.ImportRaw(t, orgA, "good", "application/json", good), http.StatusBadRequest, []any{"file is not valid JSON"})
	wantError(t, env.ImportRaw(t, orgA, "good", "application/yaml", "name: [x\n"), http.StatusBadRequest, nil)
	if list := env.Admin(t, http.MethodGet, "/admin/organizers/"+orgA+"/events"); list.Body["total"] != 0.0 {
		t.Fatalf("refused imports stored events: %s", list.Raw)
	}
}

func TestAdminImportRefusesRemovingACategoryWithPlaces(t *testing.T) {
	env := catalogtest.Start(t, catalogtest.Options{})
	two := catalogtest.Event("e", "E", "PUBLISHED", false, "categories: [{key: a, name: A, basePrice: 1}, {key: b, name: Bravo, basePrice: 1}]")
	created := env.Import(t, orgA, two)
	b := created.Body["categories"].([]any)[1].(map[string]any)["id"].(string)
	if _, err := env.Pool.Exec(t.Context(), `INSERT INTO category_places (category_id, event_id, confirmed, held, version, updated_at, livemode) VALUES ($1, $2, 3, 0, 1, now(), true)`, b, created.Body["id"]); err != nil {
		t.Fatal(err)
	}
	r := env.ImportRaw(t, orgA, "e", "application/yaml", catalogtest.Event("e", "E", "PUBLISHED", false, "categories: [{key: a, name: A, basePrice: 1}]"))
	wantError(t, r, http.StatusConflict, `categories: category "b" (`+b+`, Bravo) has 3 places taken (3 confirmed, 0 held) and cannot be removed; keep it in the file with published: false to stop selling it`)
}

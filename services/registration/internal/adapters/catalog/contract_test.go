package catalog_test

import (
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/contracttest"
	"github.com/podiumhq/podium/libs/identity/identitytest"
	catalogcontracts "github.com/podiumhq/podium/services/catalog/contracts"
	"github.com/podiumhq/podium/services/registration/internal/domain"
)

// TestEventReadsOnlyWhatTheCatalogsContractSays: every member of domain.Event, which the
// catalog's answer is decoded into, is in the catalog's contract with a type it can hold.
func TestEventReadsOnlyWhatTheCatalogsContractSays(t *testing.T) {
	contracttest.Load(t, catalogcontracts.Internal).Operation(t, "getEvent").CheckReads(t, http.StatusOK, domain.Event{})
}

// TestEventReadsTheCatalogsExample reads the example of the catalog's contract through the
// client and checks what registration takes of it.
func TestEventReadsTheCatalogsExample(t *testing.T) {
	issuers := identitytest.New(t)
	example := contracttest.Load(t, catalogcontracts.Internal).Operation(t, "getEvent").Response(t, http.StatusOK).Example
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write(example) }))
	t.Cleanup(srv.Close)
	e, err := newClient(issuers, srv.URL, nil, 0).Event(t.Context(), browser, "evt_8Jk2Lm4Np6Qr8St0Uv2W")
	if err != nil {
		t.Fatal(err)
	}
	if start, ok := e.Start(); !ok || !start.Equal(time.Date(2027, 6, 12, 0, 0, 0, 0, time.UTC)) || e.OrganizerID != "org_3Fg5Hj7Kl9Mn1Pq3Rs5T" ||
		!e.Public() || e.Currency != "EUR" || e.Version != 7 {
		t.Fatalf("event %+v", e)
	}
	rx, ok := e.Category("cat_2Wd4Fe6Rg8Th0Yj2Uk4L")
	if !ok || rx.Gender != domain.GenderMale || *rx.AgeMin != 18 || rx.AgeMax != nil || *rx.Quota != 50 || rx.TeamSize != (domain.TeamSize{Min: 1, Max: 1}) || !rx.Published {
		t.Fatalf("RX category %+v", rx)
	}
	if teams, _ := e.Category("cat_9Qs1Ad3Zx5Cv7Bn9Mk1J"); teams.Quota != nil || !teams.Private || teams.Published || teams.TeamSize.Max != 3 {
		t.Fatalf("teams category %+v", teams)
	}
	if f := e.FormFields[0]; f.Type != domain.FieldSelect || !f.Required || !slices.Equal(f.Options, []string{"S", "M", "L"}) || f.AppliesTo != domain.AppliesToAthlete {
		t.Fatalf("form field %+v", f)
	}
	if f := e.FormFields[1]; f.AppliesTo != domain.AppliesToTeam || !slices.Equal(f.CategoryIDs, []string{"cat_9Qs1Ad3Zx5Cv7Bn9Mk1J"}) || f.Options != nil {
		t.Fatalf("form field %+v", f)
	}
	if s := e.Supplements[1]; s.Kind != domain.SupplementOptions || !s.Active || len(s.Options) != 1 || s.Options[0].ID != "opt_8Ik0Ol2Pz4Xc6Vb8Nm0Q" || !s.Options[0].Active {
		t.Fatalf("supplement %+v", s)
	}
}

// TestAnIncompatibleChangeOfTheCatalogsContractFailsRegistration: renaming a member
// registration reads, or changing its type, is reported for domain.Event.
func TestAnIncompatibleChangeOfTheCatalogsContractFailsRegistration(t *testing.T) {
	api := contracttest.Load(t, catalogcontracts.Internal)
	changed := api.Edit(t, func(doc map[string]any) {
		category := contracttest.At(doc, "components", "schemas", "Category", "properties")
		category["capacity"] = category["quota"]
		delete(category, "quota")
		category["ageMin"] = map[string]any{"type": "string"}
		contracttest.At(doc, "components", "schemas", "Event", "properties")["version"] = map[string]any{"type": "number"}
	})
	got := contracttest.ReadProblems(changed.Operation(t, "getEvent").Response(t, http.StatusOK).Schema, reflect.TypeFor[domain.Event]())
	want := []string{
		"version may be number in the contract; the caller reads it as int64",
		"categories[].ageMin may be string in the contract; the caller reads it as int",
		"categories[].quota is not in the contract",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("problems\n%q\nwant\n%q", got, want)
	}
}

// catalogDocument is the catalog's answer for e: its contract's example with e's values.
func catalogDocument(t testing.TB, e domain.Event) []byte {
	t.Helper()
	body, err := contracttest.Load(t, catalogcontracts.Internal).Operation(t, "getEvent").Response(t, http.StatusOK).Document(e)
	if err != nil {
		t.Fatal(err)
	}
	return body
}

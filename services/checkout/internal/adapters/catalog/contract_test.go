package catalog

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/contracttest"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/libs/identity/identitytest"
	catalogcontracts "github.com/podiumhq/podium/services/catalog/contracts"
)

// TestEventDocReadsOnlyWhatTheCatalogsContractSays: every member of eventDoc, which both
// event routes are decoded into, is in the catalog's contract with a type it can hold.
func TestEventDocReadsOnlyWhatTheCatalogsContractSays(t *testing.T) {
	api := contracttest.Load(t, catalogcontracts.Internal)
	for _, op := range []string{"getEvent", "getEventOfCategory"} {
		api.Operation(t, op).CheckReads(t, http.StatusOK, eventDoc{})
	}
}

// TestEventReadsTheCatalogsExample reads the example of the catalog's contract through the
// client and checks what checkout takes of it.
func TestEventReadsTheCatalogsExample(t *testing.T) {
	example := contracttest.Load(t, catalogcontracts.Internal).Operation(t, "getEvent").Response(t, http.StatusOK).Example
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write(example) }))
	t.Cleanup(srv.Close)
	c := New(srv.URL, 5*time.Second, identitytest.New(t).Signer(identity.Checkout))
	as := identity.Principal{OrganizerID: "org_3Fg5Hj7Kl9Mn1Pq3Rs5T", KeyID: "key_pub", KeyType: identity.Publishable}
	e, err := c.Event(t.Context(), as, "evt_8Jk2Lm4Np6Qr8St0Uv2W")
	if err != nil {
		t.Fatal(err)
	}
	if e.ID != "evt_8Jk2Lm4Np6Qr8St0Uv2W" || e.Status != "PUBLISHED" || !e.StartDate.Equal(time.Date(2027, 6, 12, 0, 0, 0, 0, time.UTC)) ||
		e.Currency != "EUR" || e.PreviewToken != "prv_5Tg7Yh9Uj1Ik3Ol5Pz7X" || len(e.Categories) != 2 {
		t.Fatalf("event %+v", e)
	}
	if c := e.Categories[1]; c.TeamMin != 2 || c.TeamMax != 3 || c.ActivePrice != 15000 || !c.Private || c.Published {
		t.Fatalf("category %+v", c)
	}
	if w := e.Waivers[0]; w.Version != 2 || !w.Required || w.ForMinors {
		t.Fatalf("waiver %+v", w)
	}
	if s := e.Supplements; s[0].Price != 1500 || s[0].PerAthlete || !s[1].PerAthlete || s[1].Options[0].Price != 3000 {
		t.Fatalf("supplements %+v", s)
	}
	early, five := e.Promocodes[0], e.Promocodes[1]
	if early.BasisPoints != 1000 || early.ValidFrom != nil || !early.ValidUntil.Equal(time.Date(2027, 2, 28, 23, 0, 0, 0, time.UTC)) || *early.MaxUses != 100 {
		t.Fatalf("promocode %+v", early)
	}
	if five.Type != "FIXED" || five.Amount != 500 || five.MaxUses != nil || !slices.Equal(five.CategoryIDs, []string{"cat_2Wd4Fe6Rg8Th0Yj2Uk4L"}) {
		t.Fatalf("promocode %+v", five)
	}
	if f := e.Fees; f[0].BasisPoints != 500 || f[0].PerOrder || f[1].Amount != 100 || !f[1].PerOrder {
		t.Fatalf("fees %+v", f)
	}
}

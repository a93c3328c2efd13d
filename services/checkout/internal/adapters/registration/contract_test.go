package registration

import (
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/contracttest"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/libs/identity/identitytest"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
	registrationcontracts "github.com/podiumhq/podium/services/registration/contracts"
)

// TestHoldKeepsRegistrationsContract: the hold checkout sends has only members registration's
// contract describes and always has those it requires; the answer it reads has what it reads.
// The other calls send maps, which the registration double of every checkout test checks.
func TestHoldKeepsRegistrationsContract(t *testing.T) {
	hold := contracttest.Load(t, registrationcontracts.Internal).Operation(t, "createHold")
	hold.CheckSends(t, holdBody{})
	for _, status := range []int{http.StatusCreated, http.StatusOK} {
		hold.CheckReads(t, status, holdAnswer{})
	}
}

// TestHoldReadsRegistrationsExample holds through the client against registration's example
// answer, after checking the request against the contract.
func TestHoldReadsRegistrationsExample(t *testing.T) {
	hold := contracttest.Load(t, registrationcontracts.Internal).Operation(t, "createHold")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			t.Error(err)
		}
		if err := hold.CheckRequest(body); err != nil {
			t.Error(err)
		}
		w.WriteHeader(http.StatusCreated)
		_, _ = w.Write(hold.Response(t, http.StatusCreated).Example)
	}))
	t.Cleanup(srv.Close)
	c := New(srv.URL, 5*time.Second, identitytest.New(t).Signer(identity.Checkout))
	one := 0
	req := domain.HoldRequest{
		HoldID: "chk_1", EventID: "evt_1", ExpiresAt: time.Date(2026, 11, 22, 10, 10, 0, 0, time.UTC), Currency: "EUR", Amount: 5875,
		PurchaserEmail: "ana@example.com", PurchaserName: "Ana Atleta",
		Registrations: []domain.HoldRegistration{{
			CategoryID: "cat_1", TeamName: "Team A", Athletes: []domain.Athlete{{Fullname: "Ana Atleta", BirthDate: "1990-04-01"}},
			CustomFields: []domain.CustomFieldValue{{FieldID: "fld_1", Value: []byte(`["S"]`), AthleteIndex: &one}},
		}},
	}
	got, err := c.Hold(t.Context(), identity.Principal{OrganizerID: "org_1", KeyID: "key_pub", KeyType: identity.Publishable}, req)
	if err != nil || got.OrderID != "ord_4Ed6Rf8Tg0Yh2Uj4Ik6O" || !got.ExpiresAt.Equal(req.ExpiresAt) {
		t.Fatalf("hold %+v %v", got, err)
	}
}

// TestAnIncompatibleChangeOfRegistrationsContractFailsCheckout: a member checkout sends that
// registration would no longer take, or one it would newly require, is reported.
func TestAnIncompatibleChangeOfRegistrationsContractFailsCheckout(t *testing.T) {
	changed := contracttest.Load(t, registrationcontracts.Internal).Edit(t, func(doc map[string]any) {
		hold := contracttest.At(doc, "components", "schemas", "HoldRequest")
		delete(hold["properties"].(map[string]any), "purchaserName")
		props := hold["properties"].(map[string]any)
		props["locale"] = map[string]any{"type": "string"}
		hold["required"] = append(hold["required"].([]any), "locale")
	})
	got := contracttest.SendProblems(changed.Operation(t, "createHold").Request, reflect.TypeFor[holdBody]())
	want := []string{"purchaserName is not in the contract", "locale is required by the contract; the caller does not send it"}
	if !slices.Equal(got, want) {
		t.Fatalf("problems\n%q\nwant\n%q", got, want)
	}
}

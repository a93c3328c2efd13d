package domain_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

func TestHoldProblemsAreNamedByThePurchasesPaths(t *testing.T) {
	refused := fault.NewUnprocessable(
		"registrations[0].athletes[0].birthDate: athlete is 15 on 2027-06-12, the category requires at least 18",
		"registrations[2].customFields: form field fld_1 (Box) is required",
		"registrations[0]: the purchase",
		"registrations: a purchase holds at most 11 places",
		"registrations[x] stays",
	).WithCode("rule_violated")
	got, ok := fault.Of(domain.InPurchaseTerms(refused))
	want := []string{
		"athletes[0].birthDate: athlete is 15 on 2027-06-12, the category requires at least 18",
		"guestRegistrations[1].customFields: form field fld_1 (Box) is required",
		"body: the purchase",
		"guestRegistrations: a purchase holds at most 11 places",
		"registrations[x] stays",
	}
	if !ok || !slices.Equal(got.Problems, want) || got.Kind != fault.Unprocessable || got.Code != "rule_violated" {
		t.Fatalf("got %+v, want problems %q", got, want)
	}
	if refused.Problems[0] != "registrations[0].athletes[0].birthDate: athlete is 15 on 2027-06-12, the category requires at least 18" {
		t.Fatal("the peer's failure was changed in place")
	}
	other := errors.New("dial tcp: refused")
	if err := domain.InPurchaseTerms(other); err != other { //nolint:errorlint // the very error, not one wrapping it
		t.Fatal("an error without problems is returned as it is")
	}
}

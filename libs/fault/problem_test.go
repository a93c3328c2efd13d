package fault_test

import (
	"slices"
	"testing"

	"github.com/podiumhq/podium/libs/fault"
)

func TestPathOfReadsThePathAProblemStartsWith(t *testing.T) {
	for problem, want := range map[string]string{
		"athletes[0].phone must be in E.164 form":                     "athletes[0].phone",
		"registrations: a purchase holds at most 10 places":           "registrations",
		"legalSignature.strokes[2][13] must have x and y from 0 to 1": "legalSignature.strokes[2][13]",
		`waiverAcceptances["wvr_1"] must be true: the waiver`:         `waiverAcceptances["wvr_1"]`,
		`waivers["a\"]b"] is not a waiver of this event`:              `waivers["a\"]b"]`,
		"customFields: form field fld_1 (Box) is required":            "customFields",
		"body must be a JSON object":                                  "",
		"Stripe-Signature header is missing":                          "",
		"athletes[x] is odd":                                          "",
		"athletes[0":                                                  "",
		"athletes.":                                                   "",
		"9lives is not a path":                                        "",
		"":                                                            "",
		"alone":                                                       "",
	} {
		if got := fault.PathOf(problem); got != want {
			t.Errorf("PathOf(%q) = %q, want %q", problem, got, want)
		}
	}
}

func TestDetailsCodeTheProblemsOfInputCategoriesOnly(t *testing.T) {
	got := fault.NewUnprocessable("termsAccepted must be true", "guestRegistrations must have at most 10 items").Details()
	want := []fault.Problem{
		{Path: "termsAccepted", Code: fault.CodeRuleViolated, Message: "termsAccepted must be true"},
		{Path: "guestRegistrations", Code: fault.CodeRuleViolated, Message: "guestRegistrations must have at most 10 items"},
	}
	if !slices.Equal(got, want) {
		t.Fatalf("Details = %+v, want %+v", got, want)
	}
	if got := fault.NewInvalid("limit: must be an integer").Details(); len(got) != 1 || got[0].Code != fault.CodeInvalid || got[0].Path != "limit" {
		t.Fatalf("Invalid details = %+v", got)
	}
	if got := fault.NewConflict("category cat_1 is sold out").Details(); got != nil {
		t.Fatalf("a conflict has no field problems, got %+v", got)
	}
}

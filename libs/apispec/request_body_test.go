package apispec

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
)

func TestReceiptRules(t *testing.T) {
	emailRule := "email must be a valid e-mail address: no leading dot, no consecutive dots, " +
		"and a domain ending in a top-level part of 2 or more letters"
	long := longEmail
	for _, op := range []string{"browserLookupReceipts", "browserSendReceipts"} {
		t.Run(op, func(t *testing.T) {
			runRules(t, op, receipt, []ruleCase{
				ok("254 chars", "email", long(254)),
				bad("255 chars", "email", long(255), "email must be at most 254 characters long"),
				bad("2 chars", "email", "a@", emailRule, "email must be at least 3 characters long"),
				bad("consecutive dots", "email", "ana..g@example.com", emailRule),
				bad("missing", "email", remove, "email is required"),
				ok("unknown property", "name", "Ana"),
			})
		})
	}
}

func TestEmptyAndMalformedBodies(t *testing.T) {
	v := validator(t)
	tests := []struct {
		op, body string
		want     []string
	}{
		{"organizerSearchEvents", "", nil},
		{"organizerSearchEvents", " \n\t", nil},
		{"organizerSearchRegistrations", "", nil},
		{"organizerUpdateRegistration", "", nil},
		{"browserSearchEvents", "", nil},
		{"organizerCreateRegistration", "", []string{"body is required: send a JSON object"}},
		{"browserCheckoutSession", "  ", []string{"body is required: send a JSON object"}},
		{"browserLookupReceipts", "", []string{"body is required: send a JSON object"}},
		{"organizerSearchEvents", "null", []string{"body must be a JSON object"}},
		{"organizerSearchEvents", "[]", []string{"body must be a JSON object"}},
		{"browserCheckoutSummary", `"x"`, []string{"body must be a JSON object"}},
		{"browserCheckoutSummary", `{"categoryId":`, []string{"body must be valid JSON"}},
		{"browserCheckoutSummary", `{} {}`, []string{"body must be valid JSON"}},
		{"browserCheckoutSummary", `{'a':1}`, []string{"body must be valid JSON"}},
		{"browserCheckoutSummary", "{}", []string{"categoryId is required", "purchaserEmail is required"}},
		{"organizerSearchEvents", `{"limit":1e999999}`,
			[]string{"limit is a number outside the range this API accepts"}},
		{"organizerSearchEvents", `{"x":{"y":[1e-401]}}`,
			[]string{"x.y[0] is a number outside the range this API accepts"}},
		{"organizerSearchEvents", `{"offset":0.` + str(200, "0") + `1}`,
			[]string{"offset is a number outside the range this API accepts"}},
		{"organizerSearchEvents", `{"limit":1e2}`, nil},
		// encoding/json would read the last of these, the schema the first.
		{"organizerSearchEvents", `{"limit":10,"LIMIT":100000}`,
			[]string{"LIMIT is given more than once: member names are compared without regard to case"}},
		{"browserCheckoutSummary", `{"categoryId":"cat_1","purchaserEmail":"a@b.es","guests":[{"email":"x@y.es","Email":"z"}]}`,
			[]string{"guests[0].Email is given more than once: member names are compared without regard to case"}},
		{"organizerSearchEvents", `{"limit":10,"limit":20}`, nil},
		// No service can store U+0000 (PostgreSQL refuses it in text and jsonb), wherever it is.
		{"organizerSearchRegistrations", `{"search":"a\u0000b","customFieldFilters":[{"fieldId":"f","operator":"equals","value":["\u0000"]}]}`,
			[]string{"customFieldFilters[0].value[0] must not contain the character U+0000", "search must not contain the character U+0000"}},
		{"organizerSearchEvents", `{"x":{"a\u0000":1}}`, []string{"x must not have member names containing the character U+0000"}},
		{"organizerSearchEvents", `{"search":"\u0001\u001f"}`, nil},
		{"organizerSearchEvents", `{"limit":1e3}`, []string{"limit must be at most 100"}},
		// Body-less operations do not read the body.
		{"organizerGetEvent", `not json`, nil},
		{"organizerDeleteRegistration", `{}`, nil},
		{"browserGetPricingCards", ``, nil},
	}
	for _, tc := range tests {
		t.Run(tc.op+" "+tc.body, func(t *testing.T) {
			got := problemsOf(t, v.ValidateRequest(tc.op, []byte(tc.body)))
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestUnknownOperation(t *testing.T) {
	v := validator(t)
	if err := v.ValidateRequest("nope", nil); !errors.Is(err, ErrUnknownOperation) {
		t.Errorf("ValidateRequest: got %v, want ErrUnknownOperation", err)
	}
	if err := v.ValidateResponse("nope", 200, nil); !errors.Is(err, ErrUnknownOperation) {
		t.Errorf("ValidateResponse: got %v, want ErrUnknownOperation", err)
	}
}

func TestProblemsAreSortedWithIndexesInNumericOrder(t *testing.T) {
	v := validator(t)
	body := createRegistration()
	body["athletes"] = repeat(12, func(i int) any {
		a := athlete()
		if i == 2 || i == 10 {
			a["phone"] = "bad"
		}
		return a
	})
	delete(body, "teamName")
	body["bibRaceNumber"] = 0
	got := problemsOf(t, v.ValidateRequest("organizerCreateRegistration", encode(t, body)))
	want := []string{
		"athletes[2].phone must be in E.164 form: a plus sign, a digit 1-9, then 6 to 14 digits",
		"athletes[10].phone must be in E.164 form: a plus sign, a digit 1-9, then 6 to 14 digits",
		"bibRaceNumber must be greater than 0",
		"teamName is required",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
	var verr *ValidationError
	err := v.ValidateRequest("organizerCreateRegistration", encode(t, body))
	if !errors.As(err, &verr) || !strings.HasPrefix(err.Error(), "invalid body: athletes[2].phone") {
		t.Errorf("Error() = %q", err)
	}
}

func TestProblemsAreCapped(t *testing.T) {
	v := validator(t)
	body := createRegistration()
	body["athletes"] = repeat(100, func(int) any { return with(t, with(t, athlete(), "phone", "x"), "gender", "X") })
	got := problemsOf(t, v.ValidateRequest("organizerCreateRegistration", encode(t, body)))
	if len(got) != maxProblems+1 || got[maxProblems] != "and 100 more problems" {
		t.Errorf("got %d problems ending %q", len(got), got[len(got)-1])
	}
	// The first ones by path, array indexes in numeric order.
	if got[0] != "athletes[0].gender must be one of: MALE, FEMALE" || got[99] != phoneAt(49) {
		t.Errorf("got %q ... %q", got[0], got[99])
	}
}

func TestValidatorIsSafeForConcurrentUse(t *testing.T) {
	v := validator(t)
	good := encode(t, checkoutSession())
	badBody := encode(t, with(t, checkoutSession(), "ipEnrichment.foo", 1))
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for i := range 16 {
		wg.Go(func() {
			for j := range 20 {
				if err := v.ValidateRequest(session, good); err != nil {
					errs <- fmt.Errorf("good body %d/%d: %w", i, j, err)
				}
				var verr *ValidationError
				err := v.ValidateRequest(session, badBody)
				if !errors.As(err, &verr) || !slices.Equal(verr.Messages(), []string{"ipEnrichment.foo is not allowed"}) {
					errs <- fmt.Errorf("bad body %d/%d: %w", i, j, err)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// phoneAt is the problem of a malformed phone of athletes[i].
func phoneAt(i int) string {
	return fmt.Sprintf("athletes[%d].phone must be in E.164 form: a plus sign, a digit 1-9, then 6 to 14 digits", i)
}

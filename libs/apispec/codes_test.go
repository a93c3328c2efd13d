package apispec

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/httpserver"
)

// TestProblemsCarryTheirPathAndCode checks the path and code of each kind of problem a request
// can have.
func TestProblemsCarryTheirPathAndCode(t *testing.T) {
	v := validator(t)
	cases := []struct {
		name, operation, body string
		want                  []fault.Problem
	}{
		{"not JSON", "organizerSearchEvents", `{"limit":`, []fault.Problem{pr("", "invalid_json", "body must be valid JSON")}},
		{"too deep", "organizerSearchEvents", strings.Repeat("[", 33) + strings.Repeat("]", 33), []fault.Problem{pr("", "too_deep", tooDeepProblem)}},
		{"wrong type", "organizerSearchEvents", `{"limit":"ten"}`, []fault.Problem{pr("limit", "invalid_type", "limit must be an integer")}},
		{"too small and too large", "organizerSearchEvents", `{"limit":0,"offset":-1}`, []fault.Problem{
			pr("limit", "too_small", "limit must be at least 1"), pr("offset", "too_small", "offset must be at least 0")}},
		{"too large", "organizerSearchEvents", `{"limit":101}`, []fault.Problem{pr("limit", "too_large", "limit must be at most 100")}},
		{"too long", "organizerSearchEvents", `{"search":"` + strings.Repeat("a", 101) + `"}`, []fault.Problem{pr("search", "too_long", "search must be at most 100 characters long")}},
		{"not one of", "organizerSearchEvents", `{"status":"GONE"}`, []fault.Problem{pr("status", "not_allowed", "status must be one of: DRAFT, PUBLISHED, UNDER_REVIEW, POSTPONED, COMPLETED, CANCELLED, ARCHIVED")}},
		{"named twice", "organizerSearchEvents", `{"limit":1,"LIMIT":2}`, []fault.Problem{pr("LIMIT", "duplicate", "LIMIT is given more than once: member names are compared without regard to case")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var verr *ValidationError
			if err := v.ValidateRequest(tc.operation, []byte(tc.body)); !errors.As(err, &verr) {
				t.Fatalf("got %v, want problems", err)
			}
			if !slices.Equal(verr.Problems, tc.want) {
				t.Fatalf("problems %+v, want %+v", verr.Problems, tc.want)
			}
		})
	}
}

func TestProblemsBeyondTheFirstHundredAreCounted(t *testing.T) {
	many := make([]problem, maxProblems+3)
	for i := range many {
		many[i] = problem{at: []step{member("a"), item(i)}, code: codeRequired, text: "is required"}
	}
	got := finish(many)
	if len(got) != maxProblems+1 || got[0] != (fault.Problem{Path: "a[0]", Code: codeRequired, Message: "a[0] is required"}) {
		t.Fatalf("%d problems starting %+v", len(got), got[0])
	}
	if last := got[len(got)-1]; last != (fault.Problem{Code: codeMoreProblems, Message: "and 3 more problems"}) {
		t.Fatalf("last problem %+v, want the count of the others", last)
	}
}

func pr(path, code, message string) fault.Problem {
	return fault.Problem{Path: path, Code: code, Message: message}
}

func TestEveryDefaultCodeOfTheServersIsListedForItsStatus(t *testing.T) {
	v := validator(t)
	for status := 400; status < 600; status++ {
		code := httpserver.DefaultCode(status)
		body := `{"statusCode":` + strconv.Itoa(status) + `,"code":"` + code + `","message":"m","error":"e","requestId":"r"}`
		if err := v.ValidateError(status, []byte(body)); err != nil {
			t.Errorf("%d %s: %v", status, code, err)
		}
	}
	if err := v.ValidateError(404, []byte(`{"statusCode":404,"code":"rate_limited","message":"m","error":"Not Found","requestId":"r"}`)); err == nil {
		t.Error("a code answered with a status the document does not give it was accepted")
	}
}

package fault_test

import (
	"errors"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/fault"
)

func TestCategoriesMatchThroughWrapping(t *testing.T) {
	err := fmt.Errorf("create: %w", fault.NewNotFound("event evt_1"))
	if !errors.Is(err, fault.ErrNotFound) {
		t.Fatalf("errors.Is(%v, ErrNotFound) = false", err)
	}
	if errors.Is(err, fault.ErrConflict) {
		t.Fatalf("a not-found matched ErrConflict")
	}
	if got := fault.KindOf(err); got != fault.NotFound {
		t.Fatalf("KindOf = %v, want not found", got)
	}
	if got := fault.KindOf(io.EOF); got != fault.Internal {
		t.Fatalf("KindOf(io.EOF) = %v, want internal", got)
	}
	if got := err.Error(); got != "create: event evt_1 not found" {
		t.Fatalf("Error() = %q", got)
	}
}

func TestUnavailableKeepsItsCause(t *testing.T) {
	err := fault.NewUnavailable("catalog", io.ErrUnexpectedEOF)
	if !errors.Is(err, io.ErrUnexpectedEOF) || !errors.Is(err, fault.ErrUnavailable) {
		t.Fatalf("%v does not match its cause and its category", err)
	}
}

func TestProblemsBecomeOneFailure(t *testing.T) {
	var p fault.Problems
	if p.Err(fault.Invalid) != nil {
		t.Fatal("no problems gave a failure")
	}
	p.Add("name: is required")
	p.Addf("athletes[%d]: too young", 2)
	e, ok := fault.Of(p.Err(fault.Unprocessable))
	if !ok || e.Kind != fault.Unprocessable || len(e.Problems) != 2 || e.Problems[1] != "athletes[2]: too young" {
		t.Fatalf("Err = %#v", e)
	}
}

func TestTooManyRequestsCarriesItsWait(t *testing.T) {
	e := fault.NewTooManyRequests("slow down", 90*time.Second)
	if e.RetryAfter != 90*time.Second || e.Kind != fault.TooManyRequests || e.Error() != "slow down" {
		t.Fatalf("got %#v", e)
	}
	if got := fault.Kind(42).String(); got != "kind(42)" {
		t.Fatalf("String of an unknown kind = %q", got)
	}
}

func TestWithCodeLeavesASharedFailureAsItIs(t *testing.T) {
	shared := fault.NewConflict("category cat_1 is sold out")
	tagged := shared.WithCode("quota_exhausted")
	if shared.Code != "" || tagged.Code != "quota_exhausted" || tagged.Problems[0] != shared.Problems[0] {
		t.Fatalf("shared %+v, tagged %+v", shared, tagged)
	}
}

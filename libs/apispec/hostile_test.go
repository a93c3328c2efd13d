package apispec

import (
	"errors"
	"runtime"
	"testing"

	"github.com/podiumhq/podium/libs/apispec/apispectest"
)

// TestHostileBodiesAreAnsweredAsBuilt checks every hostile body of every browser operation: it
// fits the operation's limit, is accepted or refused as built, and a refusal lists at most
// maxProblems problems and a count, each of bounded length whatever the body's names and nesting.
func TestHostileBodiesAreAnsweredAsBuilt(t *testing.T) {
	v := validator(t)
	for _, op := range Operations() {
		if op.Surface != Browser || !op.HasBody {
			continue
		}
		for _, h := range apispectest.Hostile(op.ID, op.MaxBodyBytes, nil) {
			t.Run(op.ID+"/"+h.Check, func(t *testing.T) {
				if len(h.JSON) > op.MaxBodyBytes || len(h.JSON) < op.MaxBodyBytes*9/10 {
					t.Errorf("%d bytes for a limit of %d", len(h.JSON), op.MaxBodyBytes)
				}
				err := v.ValidateRequest(op.ID, h.JSON)
				if h.Valid {
					if err != nil {
						t.Fatalf("refused: %v", err)
					}
					return
				}
				var verr *ValidationError
				if !errors.As(err, &verr) {
					t.Fatalf("got %v, want problems", err)
				}
				if len(verr.Problems) > maxProblems+1 {
					t.Errorf("%d problems", len(verr.Problems))
				}
				for _, p := range verr.Problems {
					if len(p) > 2*shownPath+100 {
						t.Errorf("a problem of %d bytes: %.200s", len(p), p)
					}
				}
			})
		}
	}
}

// TestHostileBodiesCostLikeTheLargestValidOne checks that no hostile checkout session costs the
// validator much more than the largest legitimate one of the same size, by the memory each
// validation allocates: the validator's work is allocation per value, per problem and per path,
// so this is a measure of its work that does not depend on the machine. Benchmarks give the
// times (BenchmarkBrowserBodies).
func TestHostileBodiesCostLikeTheLargestValidOne(t *testing.T) {
	if testing.Short() {
		t.Skip("validates a dozen bodies of 1.4 MB")
	}
	v := validator(t)
	limit := MaxBodyBytes()
	benign := apispectest.Pad(apispectest.LargestJSON(session), limit)
	base := allocated(t, v, benign)
	for _, h := range apispectest.Hostile(session, limit, nil) {
		t.Run(h.Check, func(t *testing.T) {
			got := allocated(t, v, h.JSON)
			t.Logf("allocated %d bytes, %.2f times the largest valid body's", got, float64(got)/float64(base))
			if got > 3*base {
				t.Errorf("allocated %d bytes, %.1f times the %d of the largest valid body", got, float64(got)/float64(base), base)
			}
		})
	}
}

// allocated returns the bytes one validation of a checkout session allocates.
func allocated(t *testing.T, v *Validator, body []byte) uint64 {
	t.Helper()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	err := v.ValidateRequest(session, body)
	runtime.ReadMemStats(&after)
	var verr *ValidationError
	if err != nil && !errors.As(err, &verr) {
		t.Fatal(err)
	}
	return after.TotalAlloc - before.TotalAlloc
}

package apispec

import (
	"errors"
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
				for _, p := range verr.Messages() {
					if len(p) > 2*shownPath+100 {
						t.Errorf("a problem of %d bytes: %.200s", len(p), p)
					}
				}
			})
		}
	}
}

package apispectest_test

import (
	"encoding/json"
	"testing"

	"github.com/podiumhq/podium/libs/apispec"
	"github.com/podiumhq/podium/libs/apispec/apispectest"
)

// TestHostileBodiesFitTheirSize checks that every hostile body is JSON of at most the size
// asked for, and fills all of it but a tenth or one item, for sizes of every kind.
func TestHostileBodiesFitTheirSize(t *testing.T) {
	for _, op := range apispec.Operations() {
		if !op.HasBody {
			continue
		}
		for _, size := range []int{op.MaxBodyBytes, op.MaxBodyBytes - 37, op.MaxBodyBytes/2 + 1} {
			for _, h := range apispectest.Hostile(op.ID, size, map[string]any{"extra": "member"}) {
				if len(h.JSON) > size || len(h.JSON) < size-max(size/10, 128) {
					t.Errorf("%s, %s: %d bytes for a size of %d", op.ID, h.Check, len(h.JSON), size)
				}
				if !json.Valid(h.JSON) {
					t.Errorf("%s, %s: not JSON", op.ID, h.Check)
				}
			}
		}
	}
}

// TestMinimalBodiesAreValid checks that every operation with a body has a small valid one, so
// the fuzz tests of the operations (here, at the gateway and in each owner) start from a body
// that passes: a new operation with required fields needs its entry in Minimal.
func TestMinimalBodiesAreValid(t *testing.T) {
	v, err := apispec.NewValidator()
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range apispec.Operations() {
		if op.HasBody {
			if err := v.ValidateRequest(op.ID, apispectest.Encode(apispectest.Minimal(op.ID))); err != nil {
				t.Errorf("%s: the minimal body is refused: %v", op.ID, err)
			}
		}
	}
}

// TestPad checks that Pad grows an object to the size exactly, and leaves it when there is no
// room for the member.
func TestPad(t *testing.T) {
	for _, tc := range []struct {
		body string
		size int
		want string
	}{
		{`{"a":1}`, 20, `{"a":1,"pad":"pppp"}`},
		{`{}`, 12, `{"pad":"pp"}`},
		{`{"a":1}`, 15, `{"a":1}`},
	} {
		if got := string(apispectest.Pad([]byte(tc.body), tc.size)); got != tc.want {
			t.Errorf("Pad(%s, %d) = %s, want %s", tc.body, tc.size, got, tc.want)
		}
	}
}

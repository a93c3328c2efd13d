package apispec

import (
	"bytes"
	"errors"
	"testing"

	"github.com/podiumhq/podium/libs/apispec/apispectest"
)

// TestLargestBodiesFitTheirLimits checks that the largest legitimate body of each operation is
// valid and fits the operation's byte limit, with a small margin: the limit is at most a
// quarter (or 1 KiB, for small bodies) above it.
func TestLargestBodiesFitTheirLimits(t *testing.T) {
	v := validator(t)
	for _, op := range Operations() {
		if !op.HasBody {
			continue
		}
		t.Run(op.ID, func(t *testing.T) {
			body := apispectest.LargestJSON(op.ID)
			if body == nil {
				t.Fatal("no largest body")
			}
			if err := v.ValidateRequest(op.ID, body); err != nil {
				t.Fatalf("largest body refused: %v", err)
			}
			size, limit := len(body), op.MaxBodyBytes
			if size > limit || limit > max(size*5/4, size+1024) {
				t.Errorf("largest body is %d bytes, limit %d: want the limit within a quarter or 1 KiB above it", size, limit)
			}
		})
	}
}

// TestWidestSignatureFitsTheSessionLimit checks that the largest session still fits when every
// signature coordinate takes the most characters a browser writes for it.
func TestWidestSignatureFitsTheSessionLimit(t *testing.T) {
	body := apispectest.Encode(apispectest.Largest(session,
		map[string]any{"legalSignature": apispectest.SignatureOf(apispectest.WidestPoint())}))
	if err := validator(t).ValidateRequest(session, body); err != nil {
		t.Fatalf("refused: %v", err)
	}
	if limit := MaxBodyBytes(); len(body) > limit {
		t.Errorf("%d bytes, over the limit of %d", len(body), limit)
	}
}

// TestBodiesPastTheScanBoundAreRefused: a body longer than any operation accepts, and past
// the bound of what the scan's 32-bit offsets hold, is refused as too large; a body at the
// bound is read (its search is too long).
func TestBodiesPastTheScanBoundAreRefused(t *testing.T) {
	if largest := MaxBodyBytes(); largest > maxScanBytes/8 {
		t.Fatalf("an operation accepts %d bytes: the scan bound %d leaves too little room", largest, maxScanBytes)
	}
	v := validator(t)
	for _, tc := range []struct {
		size int
		code string
	}{{maxScanBytes, codeTooLong}, {maxScanBytes + 1, codeTooLarge}} {
		search := bytes.Repeat([]byte("a"), tc.size-len(`{"search":""}`))
		body := append(append([]byte(`{"search":"`), search...), `"}`...)
		var ve *ValidationError
		err := v.ValidateRequest("browserSearchEvents", body)
		if !errors.As(err, &ve) || len(ve.Problems) != 1 || ve.Problems[0].Code != tc.code {
			t.Fatalf("a body of %d bytes: got %v, want one %s problem", len(body), err, tc.code)
		}
	}
}

package store_test

import (
	"sync"
	"testing"
	"time"

	"github.com/podiumhq/podium/services/checkout/internal/adapters/store"
	"github.com/podiumhq/podium/services/checkout/internal/checkouttest"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// TestPromocodeAttemptsAreAdmittedOneAfterAnother: ten attempts at once against overlapping
// subjects (no deadlock, whatever order they name them in) are admitted one after the other:
// the address's five free failures and the sixth, which blocks it for a minute, are charged,
// and the other four are refused with nothing recorded (the key counts six). Taking back the
// sixth, whose code was valid, lifts its block; the sweep forgets a subject only once its
// failures are forgiven.
func TestPromocodeAttemptsAreAdmittedOneAfterAnother(t *testing.T) {
	repo := store.New(checkouttest.Pool(t))
	ctx := t.Context()
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	address := domain.FailureSubject{Key: "address:198.51.100.7", Backoff: domain.DefaultAddressBackoff}
	key := domain.FailureSubject{Key: "key:key_pub_1", Backoff: domain.DefaultKeyBackoff}
	var mu sync.Mutex
	var admitted [][]domain.FailureCharge
	refused := 0
	var wg sync.WaitGroup
	for i := range 10 {
		wg.Go(func() {
			subjects := []domain.FailureSubject{address, key}
			if i%2 == 1 {
				subjects = []domain.FailureSubject{key, address}
			}
			charged, blocked, err := repo.AdmitPromocode(ctx, subjects, now)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err != nil:
				t.Error(err)
			case blocked == time.Minute && charged == nil:
				refused++
			case blocked == 0 && len(charged) == 2:
				admitted = append(admitted, charged)
			default:
				t.Errorf("attempt %d: blocked %s with %d charges", i, blocked, len(charged))
			}
		})
	}
	wg.Wait()
	if len(admitted) != 6 || refused != 4 {
		t.Fatalf("%d admitted, %d refused; want 6 and 4", len(admitted), refused)
	}
	if _, blocked, _ := repo.AdmitPromocode(ctx, []domain.FailureSubject{key}, now); blocked != 0 {
		t.Fatalf("the key is blocked %s after six failures", blocked)
	}
	var sixth []domain.FailureCharge
	for _, charged := range admitted {
		if c := charged[0]; c.Subject.Key == address.Key && c.After.BlockedUntil.After(c.Before.BlockedUntil) {
			sixth = charged
		}
	}
	if err := repo.ForgivePromocode(ctx, sixth); err != nil || sixth == nil {
		t.Fatalf("taking back the sixth (%d charges): %v", len(sixth), err)
	}
	if charged, blocked, err := repo.AdmitPromocode(ctx, []domain.FailureSubject{address}, now); err != nil || blocked != 0 || len(charged) != 1 {
		t.Fatalf("once the sixth was taken back: blocked %s (%v)", blocked, err)
	}
	// The address counts six failures (72 minutes to forgive), the key six (within four minutes).
	if n, _ := repo.PrunePromocodeFailures(ctx, now.Add(time.Hour)); n != 1 {
		t.Fatalf("pruned %d subjects an hour later, want the key only", n)
	}
	if n, _ := repo.PrunePromocodeFailures(ctx, now.Add(73*time.Minute)); n != 1 {
		t.Fatalf("pruned %d subjects once every failure was forgiven, want the address", n)
	}
}

// TestAnAttemptThatReadItsClockFirstIsNotBlockedByAnother: two attempts read their clocks, and
// the one with the later time makes the subjects' rows first; the other, whose time is a
// millisecond earlier, is admitted (no block is made up from the other's clock).
func TestAnAttemptThatReadItsClockFirstIsNotBlockedByAnother(t *testing.T) {
	repo := store.New(checkouttest.Pool(t))
	ctx := t.Context()
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	subjects := []domain.FailureSubject{
		{Key: "address:192.0.2.9", Backoff: domain.DefaultAddressBackoff}, {Key: "key:key_pub_2", Backoff: domain.DefaultKeyBackoff},
	}
	if _, blocked, err := repo.AdmitPromocode(ctx, subjects, now.Add(time.Millisecond)); err != nil || blocked != 0 {
		t.Fatalf("the first attempt: blocked %s (%v)", blocked, err)
	}
	if charged, blocked, err := repo.AdmitPromocode(ctx, subjects, now); err != nil || blocked != 0 || len(charged) != 2 {
		t.Fatalf("the attempt that read its clock first: blocked %s (%v)", blocked, err)
	}
}

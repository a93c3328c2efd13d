package postgres_test

import (
	"context"
	"sync"
	"testing"
	"time"

	chkpg "github.com/podiumhq/podium/services/checkout/internal/adapters/postgres"
	"github.com/podiumhq/podium/services/checkout/internal/checkouttest"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// TestPromocodeFailuresAreCountedAtomically: failures recorded at once by concurrent requests
// against overlapping subjects are all counted (none lost, no deadlock), the blocks they earn
// are read back, and the sweep forgets a subject only once its failures are forgiven.
func TestPromocodeFailuresAreCountedAtomically(t *testing.T) {
	repo := chkpg.New(checkouttest.Pool(t))
	ctx := context.Background()
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	address := domain.FailureSubject{Key: "address:198.51.100.7", Backoff: domain.DefaultAddressBackoff}
	key := domain.FailureSubject{Key: "key:key_pub_1", Backoff: domain.DefaultKeyBackoff}
	var wg sync.WaitGroup
	for i := range 7 {
		wg.Go(func() {
			subjects := []domain.FailureSubject{address, key}
			if i%2 == 1 {
				subjects = []domain.FailureSubject{key, address}
			}
			if err := repo.RecordPromocodeFailure(ctx, subjects, now); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	// Seven failures at once: two beyond the address's five, so blocked for 2 minutes.
	until, err := repo.PromocodeBlockedUntil(ctx, []string{address.Key, key.Key}, now)
	if err != nil || until.Sub(now) != 2*time.Minute {
		t.Fatalf("blocked until %s (%v), want 2 minutes after the failures", until.Sub(now), err)
	}
	if until, _ := repo.PromocodeBlockedUntil(ctx, []string{key.Key}, now); !until.Equal(now) {
		t.Fatalf("the key is blocked %s after seven failures", until.Sub(now))
	}
	if n, _ := repo.PrunePromocodeFailures(ctx, now.Add(time.Hour)); n != 1 {
		t.Fatalf("pruned %d subjects an hour later, want the key only (the address's 7 take 84 minutes to forgive)", n)
	}
	if n, _ := repo.PrunePromocodeFailures(ctx, now.Add(85*time.Minute)); n != 1 {
		t.Fatalf("pruned %d subjects once every failure was forgiven, want the address", n)
	}
}

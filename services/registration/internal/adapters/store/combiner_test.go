package store_test

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/registration/internal/adapters/store"
	"github.com/podiumhq/podium/services/registration/internal/regtest"
)

// TestCombinedCreatesAreGrantedAgainAfterAConcurrentTake: a combined create granted from a
// read of the ledger that another transaction outdates before its take (here a transaction
// that holds the category's ledger row while it takes 3 of the 4 places left) finds the places
// constraint failing its take; it is granted again from a fresh read, so the team of two is
// refused with the places left, and of the two creates queued behind it exactly one gets the
// last place.
func TestCombinedCreatesAreGrantedAgainAfterAConcurrentTake(t *testing.T) {
	pool := regtest.NewPool(t, 10)
	repo := store.New(pool)
	ctx := t.Context()
	e := regtest.Event("evt_r", "org_r")
	c, _ := e.Category("cat_masters") // quota 5
	create := func(names ...string) error { return createAthletes(t, repo, e, t0, c.ID, names...) }
	if err := create("First"); err != nil {
		t.Fatal(err)
	}
	tx, err := pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx) //nolint:errcheck // committed below
	if _, err := tx.Exec(ctx, `UPDATE places SET held = held + 3, version = version + 1 WHERE category_id = $1`, c.ID); err != nil {
		t.Fatal(err)
	}
	pair := make(chan error, 1)
	go func() { pair <- create("Pair A", "Pair B") }()
	waiting := func() string {
		var n int
		if err := pool.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`).Scan(&n); err != nil {
			return err.Error()
		}
		if n == 0 {
			return "the pair's take does not wait on the ledger row"
		}
		return ""
	}
	testkit.Eventually(t, 10*time.Second, waiting)
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = create(fmt.Sprint("Single", i))
		}()
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	if err := <-pair; !errors.Is(err, fault.ErrConflict) || !strings.Contains(err.Error(), "category cat_masters has only 1 places left") {
		t.Fatalf("the pair: %v", err)
	}
	made := madeOrFull(t, errs)
	var taken, regs int
	if err := pool.QueryRow(ctx, `SELECT confirmed + held FROM places WHERE category_id = $1`, c.ID).Scan(&taken); err != nil {
		t.Fatal(err)
	}
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM registrations WHERE category_id = $1`, c.ID).Scan(&regs); err != nil {
		t.Fatal(err)
	}
	if made != 1 || taken != 5 || regs != 2 {
		t.Fatalf("%d singles made it, ledger %d, %d registrations; want 1, 5 and 2", made, taken, regs)
	}
}

// TestCombinedCreatesKeepModesApart: creates of both modes combined into the same
// transactions take places from their own mode's ledger: each mode fills the quota on its own.
func TestCombinedCreatesKeepModesApart(t *testing.T) {
	pool := regtest.NewPool(t, 10)
	repo := store.New(pool)
	e := regtest.Event("evt_m", "org_m")
	c, _ := e.Category("cat_masters") // quota 5
	var wg sync.WaitGroup
	errs := map[bool][]error{true: make([]error, 8), false: make([]error, 8)}
	for livemode, list := range errs {
		for i := range list {
			wg.Add(1)
			go func() {
				defer wg.Done()
				list[i] = createInMode(t, repo, e, t0, livemode, c.ID, fmt.Sprint("A", i))
			}()
		}
	}
	wg.Wait()
	for livemode, list := range errs {
		var taken, regs int
		if err := pool.QueryRow(t.Context(), `SELECT confirmed + held FROM places WHERE category_id = $1 AND livemode = $2`, c.ID, livemode).Scan(&taken); err != nil {
			t.Fatal(err)
		}
		if err := pool.QueryRow(t.Context(), `SELECT count(*) FROM registrations WHERE category_id = $1 AND livemode = $2`, c.ID, livemode).Scan(&regs); err != nil {
			t.Fatal(err)
		}
		if made := madeOrFull(t, list); made != 5 || taken != 5 || regs != 5 {
			t.Errorf("livemode %v: %d made, ledger %d, %d registrations; want 5 each", livemode, made, taken, regs)
		}
	}
}

package store_test

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/registration/internal/adapters/store"
	"github.com/podiumhq/podium/services/registration/internal/domain"
	"github.com/podiumhq/podium/services/registration/internal/regtest"
)

// TestCombinedCreatesAreGrantedAgainAfterAConcurrentTake: combined creates granted from a read
// of the ledger that another transaction outdates before their take (here a transaction that
// holds the category's ledger row while it takes 3 of the 4 places left) find the places
// constraint failing their take; they are granted again from a fresh read, so exactly the
// place left is taken and the others are refused.
func TestCombinedCreatesAreGrantedAgainAfterAConcurrentTake(t *testing.T) {
	pool := regtest.NewPool(t, 10)
	repo := store.New(pool)
	ctx := t.Context()
	e := regtest.Event("evt_r", "org_r")
	c, _ := e.Category("cat_masters") // quota 5
	create := func(name string) error {
		now := time.Now().UTC().Truncate(time.Microsecond)
		o := domain.Order{ID: domain.NewOrderID(), OrganizerID: "org_r", EventID: e.ID, Status: domain.OrderCompleted, Source: domain.SourceManual, Currency: "EUR", CreatedAt: now, UpdatedAt: now}
		r := domain.NewRegistration(o, e, c, domain.RegistrationInput{CategoryID: c.ID, TeamName: "T", Athletes: []domain.Athlete{athlete(name, "MALE", "1970-01-01")}}, now)
		return repo.CreateOrder(ctx, o, []domain.Registration{r}, map[string]*int{c.ID: c.Quota})
	}
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
	var wg sync.WaitGroup
	errs := make([]error, 3)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = create(fmt.Sprint("Racer", i))
		}()
	}
	testkit.Eventually(t, 10*time.Second, func() string {
		var waiting int
		if err := pool.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`).Scan(&waiting); err != nil {
			return err.Error()
		}
		if waiting == 0 {
			return "no combined take waits on the ledger row"
		}
		return ""
	})
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	made := 0
	for i, err := range errs {
		switch {
		case err == nil:
			made++
		case !errors.Is(err, fault.ErrConflict):
			t.Errorf("racer %d: %v", i, err)
		}
	}
	var taken, regs int
	if err := pool.QueryRow(ctx, `SELECT confirmed + held FROM places WHERE category_id = $1`, c.ID).Scan(&taken); err != nil {
		t.Fatal(err)
	}
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM registrations WHERE category_id = $1`, c.ID).Scan(&regs); err != nil {
		t.Fatal(err)
	}
	if made != 1 || taken != 5 || regs != 2 {
		t.Fatalf("%d racers made it, ledger %d, %d registrations; want 1, 5 and 2", made, taken, regs)
	}
}

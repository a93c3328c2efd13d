package store_test

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/services/registration/internal/adapters/store"
	"github.com/podiumhq/podium/services/registration/internal/domain"
	"github.com/podiumhq/podium/services/registration/internal/regtest"
)

func TestQuotaIsNeverExceededUnderConcurrency(t *testing.T) {
	pool := regtest.NewPool(t, 40)
	repo := store.New(pool)
	e := regtest.Event("evt_q", "org_q")
	c, _ := e.Category("cat_rx") // quota 50
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok, full := 0, 0
	for i := range 120 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			now := time.Now().UTC()
			o := domain.Order{ID: domain.NewOrderID(), OrganizerID: "org_q", EventID: e.ID, Status: domain.OrderCompleted, Source: domain.SourceManual, Currency: "EUR", Livemode: true, CreatedAt: now, UpdatedAt: now}
			if i%3 == 0 { // holds and creates share the quota
				o.Status = domain.OrderPending
				exp := now.Add(time.Hour)
				o.ExpiresAt = &exp
			}
			r := domain.NewRegistration(o, e, c, domain.RegistrationInput{CategoryID: c.ID, TeamName: "T", Athletes: []domain.Athlete{athlete(fmt.Sprint("A", i), "MALE", "1990-01-01")}}, now)
			err := repo.CreateOrder(t.Context(), o, []domain.Registration{r}, map[string]*int{c.ID: c.Quota})
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				ok++
			case errors.Is(err, fault.ErrConflict) && strings.Contains(err.Error(), "category cat_rx is sold out"):
				full++
			default:
				t.Errorf("create %d: %v", i, err)
			}
		}()
	}
	wg.Wait()
	if ok != 50 || full != 70 {
		t.Fatalf("%d created, %d refused; want 50 and 70", ok, full)
	}
	var confirmed, held, regs int
	if err := pool.QueryRow(t.Context(), `SELECT confirmed, held FROM places WHERE category_id = 'cat_rx'`).Scan(&confirmed, &held); err != nil {
		t.Fatal(err)
	}
	if err := pool.QueryRow(t.Context(), `SELECT count(*) FROM registrations`).Scan(&regs); err != nil {
		t.Fatal(err)
	}
	if confirmed+held != 50 || regs != 50 {
		t.Fatalf("ledger %d+%d, %d registrations", confirmed, held, regs)
	}
}

func TestQuotaMessageNamesPlacesLeft(t *testing.T) {
	repo := store.New(regtest.NewPool(t, 0))
	e := regtest.Event("evt_m", "org_m")
	c, _ := e.Category("cat_masters") // quota 5
	now := time.Now().UTC()
	mk := func(n int) error {
		o := domain.Order{ID: domain.NewOrderID(), OrganizerID: "org_m", EventID: e.ID, Status: domain.OrderPending, Source: domain.SourceCheckout, Currency: "EUR", Livemode: true, CreatedAt: now, UpdatedAt: now}
		var regs []domain.Registration
		for range n {
			regs = append(regs, domain.NewRegistration(o, e, c, domain.RegistrationInput{CategoryID: c.ID, TeamName: "T", Athletes: []domain.Athlete{athlete("M", "MALE", "1970-01-01")}}, now))
		}
		return repo.CreateOrder(t.Context(), o, regs, map[string]*int{c.ID: c.Quota})
	}
	if err := mk(3); err != nil {
		t.Fatal(err)
	}
	if err := mk(3); err == nil || !strings.Contains(err.Error(), "category cat_masters has only 2 places left") {
		t.Fatalf("got %v", err)
	}
	if err := mk(2); err != nil {
		t.Fatal(err)
	}
	if err := mk(1); err == nil || !strings.Contains(err.Error(), "category cat_masters is sold out") {
		t.Fatalf("got %v", err)
	}
}

func TestBibIsUniqueWithinAnEvent(t *testing.T) {
	repo := store.New(regtest.NewPool(t, 0))
	bib := int64(42)
	in := func(name string) domain.RegistrationInput {
		return domain.RegistrationInput{CategoryID: "cat_rx", Athletes: []domain.Athlete{athlete(name, "MALE", "1990-01-01")}, Bib: &bib}
	}
	first := put(t, repo, t0, "org_1", "evt_1", domain.OrderCompleted, in("A"), 0)
	e := regtest.Event("evt_1", "org_1")
	c, _ := e.Category("cat_rx")
	now := time.Now().UTC()
	o := domain.Order{ID: domain.NewOrderID(), OrganizerID: "org_1", EventID: "evt_1", Status: domain.OrderCompleted, Source: domain.SourceManual, Currency: "EUR", Livemode: true, CreatedAt: now, UpdatedAt: now}
	err := repo.CreateOrder(t.Context(), o, []domain.Registration{domain.NewRegistration(o, e, c, in("B"), now)}, map[string]*int{c.ID: c.Quota})
	if !errors.Is(err, fault.ErrConflict) || !strings.Contains(err.Error(), "bib number 42 is already taken in this event") {
		t.Fatalf("second bib 42: %v", err)
	}
	put(t, repo, t0, "org_1", "evt_2", domain.OrderCompleted, in("C"), 0) // another event may use it
	// Cancelling the first registration frees its bib.
	if _, err := repo.DeleteRegistration(t.Context(), liveOf("org_1"), first.Tickets[0].ID, now); err != nil {
		t.Fatal(err)
	}
	put(t, repo, t0.Add(time.Minute), "org_1", "evt_1", domain.OrderCompleted, in("D"), 0)
}

func TestDeleteRule(t *testing.T) {
	pool := regtest.NewPool(t, 0)
	repo := store.New(pool)
	paid := put(t, repo, t0, "org_1", "evt_1", domain.OrderCompleted, domain.RegistrationInput{CategoryID: "cat_rx", Athletes: []domain.Athlete{athlete("Paid", "MALE", "1990-01-01")}}, 0)
	held := put(t, repo, t0, "org_1", "evt_1", domain.OrderPending, domain.RegistrationInput{CategoryID: "cat_rx", Athletes: []domain.Athlete{athlete("Held", "MALE", "1990-01-01")}}, 0)
	places := func() (int, int) {
		var c, h int
		if err := pool.QueryRow(t.Context(), `SELECT confirmed, held FROM places WHERE category_id = 'cat_rx'`).Scan(&c, &h); err != nil {
			t.Fatal(err)
		}
		return c, h
	}
	if c, h := places(); c != 1 || h != 1 {
		t.Fatalf("places %d %d", c, h)
	}
	now := time.Now().UTC().Truncate(time.Microsecond)
	for range 2 { // repeating is harmless
		res, err := repo.DeleteRegistration(t.Context(), liveOf("org_1"), paid.Tickets[0].ID, now)
		if err != nil || res.Result != domain.ResultCancelled || res.CancelledAt == nil || !res.CancelledAt.Equal(now) {
			t.Fatalf("paid: %+v %v", res, err)
		}
		res, err = repo.DeleteRegistration(t.Context(), liveOf("org_1"), held.Tickets[0].ID, now.Add(time.Second))
		if err != nil || res.Result != domain.ResultDeleted {
			t.Fatalf("held: %+v %v", res, err)
		}
	}
	if c, h := places(); c != 0 || h != 0 {
		t.Fatalf("places after delete %d %d", c, h)
	}
	var status string
	if err := pool.QueryRow(t.Context(), `SELECT status FROM orders WHERE id = $1`, held.OrderID).Scan(&status); err != nil || status != "CANCELLED" {
		t.Fatalf("order of the deleted hold is %s (%v)", status, err)
	}
	if _, err := repo.DeleteRegistration(t.Context(), liveOf("org_2"), paid.Tickets[0].ID, now); !errors.Is(err, fault.ErrNotFound) {
		t.Fatalf("another organizer: %v", err)
	}
	if _, err := repo.DeleteRegistration(t.Context(), liveOf("org_2"), held.Tickets[0].ID, now); !errors.Is(err, fault.ErrNotFound) {
		t.Fatalf("another organizer, deleted ticket: %v", err)
	}
}

// TestCombinedCreatesGetTheirOwnAnswers sends concurrent creates that share a bib number, so
// that combined transactions fail and each request is run alone: exactly one gets the bib.
func TestCombinedCreatesGetTheirOwnAnswers(t *testing.T) {
	pool := regtest.NewPool(t, 20)
	repo := store.New(pool)
	e := regtest.Event("evt_c", "org_c")
	c, _ := e.Category("cat_rx")
	var wg sync.WaitGroup
	var mu sync.Mutex
	results := map[string]int{}
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			now := time.Now().UTC()
			in := domain.RegistrationInput{CategoryID: c.ID, TeamName: "T", Athletes: []domain.Athlete{athlete(fmt.Sprint("B", i), "MALE", "1990-01-01")}}
			if i%4 == 0 {
				bib := int64(99)
				in.Bib = &bib
			}
			o := domain.Order{ID: domain.NewOrderID(), OrganizerID: "org_c", EventID: e.ID, Status: domain.OrderCompleted, Source: domain.SourceManual, Currency: "EUR", Livemode: true, CreatedAt: now, UpdatedAt: now}
			err := repo.CreateOrder(t.Context(), o, []domain.Registration{domain.NewRegistration(o, e, c, in, now)}, map[string]*int{c.ID: c.Quota})
			key := "ok"
			if err != nil {
				key = err.Error()
			}
			mu.Lock()
			results[key]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	if results["ok"] != 31 || results["create order: bib number 99 is already taken in this event"] != 9 {
		t.Fatalf("results %v", results)
	}
	var confirmed int
	_ = pool.QueryRow(t.Context(), `SELECT confirmed FROM places WHERE category_id = 'cat_rx'`).Scan(&confirmed)
	if confirmed != 31 {
		t.Fatalf("confirmed %d", confirmed)
	}
}

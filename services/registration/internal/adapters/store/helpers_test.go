package store_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/fault"

	"github.com/podiumhq/podium/services/registration/internal/adapters/store"
	"github.com/podiumhq/podium/services/registration/internal/domain"
	"github.com/podiumhq/podium/services/registration/internal/regtest"
)

func floatp(v float64) *float64 { return &v }

func athlete(name, gender, birth string) domain.Athlete {
	return domain.Athlete{Fullname: name, IDNumber: "ID-" + name, Email: name + "@example.com", Phone: "+34600111222", Gender: gender, BirthDate: birth}
}

// live is the live scope of any organizer (the payments consumer's and the sweeper's).
var live = domain.Scope{Livemode: true}

// liveOf is the live scope of org.
func liveOf(org string) domain.Scope { return domain.Scope{OrganizerID: org, Livemode: true} }

// t0 is the instant the tests' registrations are made from: tests choose their times.
var t0 = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

// put stores a registration of org in category cat of regtest.Event(evt, org), made at the
// instant at, with an order of the given status and returns it.
func put(t *testing.T, repo *store.Repository, at time.Time, org, evt string, status domain.OrderStatus, in domain.RegistrationInput, amount int64) domain.Registration {
	t.Helper()
	e := regtest.Event(evt, org)
	c, ok := e.Category(in.CategoryID)
	if !ok {
		t.Fatalf("no category %s", in.CategoryID)
	}
	now := at.UTC().Truncate(time.Microsecond)
	o := domain.Order{ID: domain.NewOrderID(), OrganizerID: org, EventID: evt, Status: status, Source: domain.SourceManual,
		Amount: amount, Currency: "EUR", Livemode: true, CreatedAt: now, UpdatedAt: now}
	if status == domain.OrderPending {
		o.Source, o.HoldID = domain.SourceCheckout, "hold-"+o.ID
		exp := now.Add(time.Hour)
		o.ExpiresAt = &exp
	}
	if in.TeamName == "" {
		in.TeamName = "Team " + in.Athletes[0].Fullname
	}
	r := domain.NewRegistration(o, e, c, in, now)
	if err := repo.CreateOrder(t.Context(), o, []domain.Registration{r}, map[string]*int{c.ID: c.Quota}); err != nil {
		t.Fatalf("create: %v", err)
	}
	r.Order = &o
	return r
}

// createAthletes creates, at the instant at, a completed order in category categoryID of e
// with a registration of one athlete per name, with the category's quota. It may run in a
// goroutine of the test.
func createAthletes(t *testing.T, repo *store.Repository, e domain.Event, at time.Time, categoryID string, names ...string) error {
	return createInMode(t, repo, e, at, true, categoryID, names...)
}

// createInMode is createAthletes in a mode.
func createInMode(t *testing.T, repo *store.Repository, e domain.Event, at time.Time, livemode bool, categoryID string, names ...string) error {
	c, ok := e.Category(categoryID)
	if !ok {
		return fmt.Errorf("no category %s", categoryID)
	}
	now := at.UTC().Truncate(time.Microsecond)
	o := domain.Order{ID: domain.NewOrderID(), OrganizerID: e.OrganizerID, EventID: e.ID, Status: domain.OrderCompleted, Source: domain.SourceManual, Currency: "EUR", Livemode: livemode, CreatedAt: now, UpdatedAt: now}
	var regs []domain.Registration
	for _, name := range names {
		regs = append(regs, domain.NewRegistration(o, e, c, domain.RegistrationInput{CategoryID: c.ID, TeamName: "T", Athletes: []domain.Athlete{athlete(name, "MALE", "1970-01-01")}}, now))
	}
	return repo.CreateOrder(t.Context(), o, regs, map[string]*int{c.ID: c.Quota})
}

// madeOrFull counts the creates that succeeded among errs, failing the test for any error but
// a conflict (a category without the places).
func madeOrFull(t *testing.T, errs []error) int {
	t.Helper()
	made := 0
	for i, err := range errs {
		switch {
		case err == nil:
			made++
		case !errors.Is(err, fault.ErrConflict):
			t.Errorf("create %d: %v", i, err)
		}
	}
	return made
}

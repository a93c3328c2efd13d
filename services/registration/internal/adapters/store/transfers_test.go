package store_test

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/services/registration/internal/adapters/store"
	"github.com/podiumhq/podium/services/registration/internal/domain"
	"github.com/podiumhq/podium/services/registration/internal/regtest"
)

// transferTo gives ticketID of event e to a at the instant at and returns the plan stored.
func transferTo(t *testing.T, repo *store.Repository, e domain.Event, ticketID string, a domain.Athlete, at time.Time) domain.TransferPlan {
	t.Helper()
	p, err := repo.TransferTicket(t.Context(), liveOf(e.OrganizerID), ticketID, func(r domain.Registration) (domain.TransferPlan, error) {
		return domain.PlanTransfer(e, r, ticketID, a, at)
	})
	if err != nil {
		t.Fatalf("transfer %s: %v", ticketID, err)
	}
	return p
}

// placesOf reads the live ledger of a category.
func placesOf(t *testing.T, pool *pgxpool.Pool, categoryID string) (confirmed, held int) {
	t.Helper()
	if err := pool.QueryRow(t.Context(), `SELECT confirmed, held FROM places WHERE category_id = $1 AND livemode`, categoryID).Scan(&confirmed, &held); err != nil {
		t.Fatal(err)
	}
	return confirmed, held
}

func TestATransferKeepsThePlaceAndTheHistory(t *testing.T) {
	pool := regtest.NewPool(t, 0)
	repo := store.New(pool)
	e := regtest.Event("evt_t", "org_1")
	made := put(t, repo, t0, "org_1", e.ID, domain.OrderCompleted, domain.RegistrationInput{CategoryID: "cat_rx",
		Athletes: []domain.Athlete{athlete("Giver", "MALE", "1990-01-01")}}, 0)
	ticket := made.Tickets[0]
	before, _ := placesOf(t, pool, "cat_rx")

	at := t0.Add(time.Hour)
	taker := athlete("Taker", "FEMALE", "1992-03-04")
	transferTo(t, repo, e, ticket.ID, taker, at)

	got, err := repo.Registration(t.Context(), liveOf("org_1"), ticket.ID)
	if err != nil {
		t.Fatal(err)
	}
	tk := got.Tickets[0]
	if tk.ID != ticket.ID || tk.Status != domain.TicketActive || tk.Athlete != taker || tk.AthleteID == ticket.AthleteID {
		t.Fatalf("ticket after the transfer %+v", tk)
	}
	if len(tk.Transfers) != 1 || tk.Transfers[0].From.AthleteID != ticket.AthleteID || tk.Transfers[0].To.AthleteID != tk.AthleteID ||
		tk.Transfers[0].From.Athlete != ticket.Athlete || !tk.Transfers[0].TransferredAt.Equal(at) {
		t.Fatalf("history %+v", tk.Transfers)
	}
	if len(tk.PendingWaivers) != 1 || tk.PendingWaivers[0].WaiverID != "wvr_liability" || tk.PendingWaivers[0].Version != 2 {
		t.Fatalf("pending waivers %+v", tk.PendingWaivers)
	}
	if after, _ := placesOf(t, pool, "cat_rx"); after != before {
		t.Fatalf("confirmed places %d, were %d", after, before)
	}
	rows, total, err := repo.Search(t.Context(), liveOf("org_1"), domain.SearchQuery{TicketID: ticket.ID, TicketStatus: "ACTIVE", Limit: 10, Sort: domain.SortCreatedDesc})
	if err != nil || total != 1 || rows[0].Ticket.Athlete != taker || len(rows[0].Ticket.Transfers) != 1 {
		t.Fatalf("search after the transfer: %d %+v %v", total, rows, err)
	}
}

func TestATransferToTheSameAthleteChangesNothing(t *testing.T) {
	pool := regtest.NewPool(t, 0)
	repo := store.New(pool)
	e := regtest.Event("evt_t", "org_1")
	made := put(t, repo, t0, "org_1", e.ID, domain.OrderCompleted, domain.RegistrationInput{CategoryID: "cat_rx",
		Athletes: []domain.Athlete{athlete("Giver", "MALE", "1990-01-01")}}, 0)
	taker := athlete("Taker", "FEMALE", "1992-03-04")
	first := transferTo(t, repo, e, made.Tickets[0].ID, taker, t0.Add(time.Hour))
	again := transferTo(t, repo, e, made.Tickets[0].ID, taker, t0.Add(2*time.Hour))
	if !again.Unchanged || again.Registration.Tickets[0].AthleteID != first.Registration.Tickets[0].AthleteID ||
		len(again.Registration.Tickets[0].Transfers) != 1 {
		t.Fatalf("the retry %+v", again)
	}
}

func TestTransfersOfOtherOrganizersAndModesAreNotFound(t *testing.T) {
	pool := regtest.NewPool(t, 0)
	repo := store.New(pool)
	e := regtest.Event("evt_t", "org_1")
	made := put(t, repo, t0, "org_1", e.ID, domain.OrderCompleted, domain.RegistrationInput{CategoryID: "cat_rx",
		Athletes: []domain.Athlete{athlete("Giver", "MALE", "1990-01-01")}}, 0)
	for _, s := range []domain.Scope{liveOf("org_2"), {OrganizerID: "org_1", Livemode: false}} {
		_, err := repo.TransferTicket(t.Context(), s, made.Tickets[0].ID, func(r domain.Registration) (domain.TransferPlan, error) {
			return domain.PlanTransfer(e, r, made.Tickets[0].ID, athlete("Taker", "MALE", "1990-01-01"), t0)
		})
		if !errors.Is(err, fault.ErrNotFound) {
			t.Fatalf("scope %+v: %v", s, err)
		}
	}
}

// TestTransfersRacingSearchesNeverShowThePlaceFree runs transfers of one ticket concurrently
// with searches for it: every search finds the ticket ACTIVE with one of the athletes, the
// history grows by one per transfer, and the ledger never moves.
func TestTransfersRacingSearchesNeverShowThePlaceFree(t *testing.T) {
	pool := regtest.NewPool(t, 0)
	repo := store.New(pool)
	e := regtest.Event("evt_t", "org_1")
	made := put(t, repo, t0, "org_1", e.ID, domain.OrderCompleted, domain.RegistrationInput{CategoryID: "cat_rx",
		Athletes: []domain.Athlete{athlete("Giver", "MALE", "1990-01-01")}}, 0)
	id := made.Tickets[0].ID
	confirmed, held := placesOf(t, pool, "cat_rx")
	const transfers, searches = 12, 40
	var wg sync.WaitGroup
	errs := make(chan error, transfers+searches)
	start := make(chan struct{})
	for i := range transfers {
		wg.Go(func() {
			<-start
			a := athlete("Taker"+string(rune('A'+i)), "MALE", "1990-01-01")
			_, err := repo.TransferTicket(t.Context(), liveOf("org_1"), id, func(r domain.Registration) (domain.TransferPlan, error) {
				return domain.PlanTransfer(e, r, id, a, t0.Add(time.Duration(i+1)*time.Minute))
			})
			errs <- err
		})
	}
	for range searches {
		wg.Go(func() {
			<-start
			rows, total, err := repo.Search(t.Context(), liveOf("org_1"), domain.SearchQuery{EventID: e.ID, TicketStatus: "ACTIVE", Limit: 10, Sort: domain.SortCreatedDesc})
			if err == nil && (total != 1 || len(rows) != 1 || rows[0].Ticket.ID != id) {
				err = errors.New("a search did not find the ticket active")
			}
			if c, h := placesOf(t, pool, "cat_rx"); err == nil && (c != confirmed || h != held) {
				err = errors.New("the ledger moved")
			}
			errs <- err
		})
	}
	close(start)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	got, err := repo.Registration(t.Context(), liveOf("org_1"), id)
	if err != nil || len(got.Tickets[0].Transfers) != transfers || got.Tickets[0].Status != domain.TicketActive {
		t.Fatalf("after the race: %d transfers (%v)", len(got.Tickets[0].Transfers), err)
	}
	for i := 1; i < transfers; i++ {
		if got.Tickets[0].Transfers[i].From.AthleteID != got.Tickets[0].Transfers[i-1].To.AthleteID {
			t.Fatalf("transfer %d does not follow the one before: %+v", i, got.Tickets[0].Transfers)
		}
	}
}

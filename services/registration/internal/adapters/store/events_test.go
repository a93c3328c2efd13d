package store_test

import (
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/broker/brokertest"
	"github.com/podiumhq/podium/services/registration/events"
	"github.com/podiumhq/podium/services/registration/internal/adapters/store"
	"github.com/podiumhq/podium/services/registration/internal/domain"
	"github.com/podiumhq/podium/services/registration/internal/regtest"
)

// TestEveryEventRegistrationWritesMatchesItsSchema checks the events registration publishes
// against their schemas (docs/adr/0005): the places events as the outbox holds them after
// combined creates over two events, a hold, a cancellation and a release (the store builds
// them in SQL), and the orders events as the store marshals them, every release reason
// included. The last places event of each event carries the ledger's counts.
func TestEveryEventRegistrationWritesMatchesItsSchema(t *testing.T) {
	pool := regtest.NewPool(t, 0)
	repo := store.New(pool)
	ctx := t.Context()
	a, b := regtest.Event("evt_a", "org_1"), regtest.Event("evt_b", "org_1")
	for i := range b.Categories {
		b.Categories[i].ID += "b"
	}
	var wg sync.WaitGroup
	for i := range 12 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e := []domain.Event{a, b}[i%2]
			c := e.Categories[[]int{0, 2}[i/2%2]]
			now := time.Now().UTC().Truncate(time.Microsecond)
			o := domain.Order{ID: domain.NewOrderID(), OrganizerID: "org_1", EventID: e.ID, Status: domain.OrderCompleted, Source: domain.SourceManual, Currency: "EUR", CreatedAt: now, UpdatedAt: now}
			r := domain.NewRegistration(o, e, c, domain.RegistrationInput{CategoryID: c.ID, TeamName: "T", Athletes: []domain.Athlete{athlete(fmt.Sprint("A", i), "FEMALE", "1990-01-01")}}, now)
			if err := repo.CreateOrder(ctx, o, []domain.Registration{r}, map[string]*int{c.ID: c.Quota}); err != nil {
				t.Errorf("create %d: %v", i, err)
			}
		}()
	}
	wg.Wait()
	held := put(t, repo, t0, "org_1", "evt_a", domain.OrderPending, domain.RegistrationInput{CategoryID: "cat_rx", Athletes: []domain.Athlete{athlete("Held", "MALE", "1990-01-01")}}, 0)
	paid := put(t, repo, t0, "org_1", "evt_a", domain.OrderCompleted, domain.RegistrationInput{CategoryID: "cat_women", Athletes: []domain.Athlete{athlete("Paid", "FEMALE", "1990-01-01")}}, 0)
	if _, err := repo.DeleteRegistration(ctx, "org_1", paid.Tickets[0].ID, t0); err != nil {
		t.Fatal(err)
	}
	if _, err := repo.ReleaseOrder(ctx, "org_1", held.OrderID, domain.ReleaseExpired, t0); err != nil {
		t.Fatal(err)
	}

	rows, err := pool.Query(ctx, `SELECT key, headers->>'ce_type', payload FROM outbox WHERE topic = $1 ORDER BY id`, domain.PlacesTopic)
	if err != nil {
		t.Fatal(err)
	}
	var produced []brokertest.Produced
	last := map[string]domain.PlacesChanged{}
	for rows.Next() {
		var key, typ string
		var payload []byte
		if err := rows.Scan(&key, &typ, &payload); err != nil {
			t.Fatal(err)
		}
		var m domain.PlacesChanged
		if err := json.Unmarshal(payload, &m); err != nil || m.EventID != key || m.OccurredAt.IsZero() {
			t.Fatalf("places event keyed %s: %s (%v)", key, payload, err)
		}
		last[key] = m
		produced = append(produced, brokertest.Produced{Topic: domain.PlacesTopic, Type: typ, Data: json.RawMessage(payload)})
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	for _, e := range []domain.Event{a, b} {
		for _, c := range last[e.ID].Categories {
			var confirmed, held int
			var version int64
			if err := pool.QueryRow(ctx, `SELECT confirmed, held, version FROM places WHERE category_id = $1`, c.CategoryID).Scan(&confirmed, &held, &version); err != nil {
				t.Fatal(err)
			}
			if c.Confirmed != confirmed || c.Held != held || c.Version != version {
				t.Errorf("last event of %s says %+v, the ledger %d+%d v%d", e.ID, c, confirmed, held, version)
			}
		}
	}
	if len(last["evt_b"].Categories) == 0 || len(last["evt_a"].Categories) == 0 {
		t.Fatalf("places events of the events: %+v", last)
	}

	now := time.Date(2026, 5, 9, 20, 3, 21, 447_000_000, time.FixedZone("CEST", 2*3600))
	order := domain.NewOrderID()
	produced = append(produced,
		brokertest.Produced{Topic: domain.OrdersTopic, Type: domain.EventOrderCompleted, Data: domain.OrderCompletedEvent{
			OrderID: order, EventID: "evt_2Hf9KqW4mZp7Tx1Lc8Rb", OrganizerID: "org_7Ks2NdQ9bYw4RmTx8Ve1", CompletedAt: now,
		}},
		brokertest.Produced{Topic: domain.OrdersTopic, Type: domain.EventOrderUnfulfilled, Data: domain.OrderUnfulfillableEvent{
			OrderID: order, Reason: domain.ReasonNoPlaceLeft, PaymentRef: "pi_3PqL8e2eZvKYlo2C1xT9mB4R",
		}})
	for _, reason := range []string{domain.ReleaseExpired, domain.ReleaseFailed, domain.ReleaseCancelled} {
		produced = append(produced, brokertest.Produced{Topic: domain.OrdersTopic, Type: domain.EventOrderReleased, Data: domain.OrderReleasedEvent{
			OrderID: order, Reason: reason, ReleasedAt: now,
		}})
	}
	brokertest.LoadContracts(t, events.Files).Check(t, produced...)
}

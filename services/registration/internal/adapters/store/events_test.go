package store_test

import (
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/podiumhq/podium/libs/broker/brokertest"
	"github.com/podiumhq/podium/services/registration/events"
	"github.com/podiumhq/podium/services/registration/internal/adapters/store"
	"github.com/podiumhq/podium/services/registration/internal/domain"
	"github.com/podiumhq/podium/services/registration/internal/regtest"
)

// TestEveryEventRegistrationWritesMatchesItsSchema checks the events registration publishes
// against their schemas (docs/adr/0005): the places events as the outbox holds them after
// combined creates over two events, a hold, a cancellation and a release (the store builds
// them in SQL), and the registrations and orders events as the outbox holds them after every
// change that writes them, every release reason included (an unfulfillable order's as the
// store builds it). The last places event of each event carries the ledger's counts.
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
			o := domain.Order{ID: domain.NewOrderID(), OrganizerID: "org_1", EventID: e.ID, Status: domain.OrderCompleted, Source: domain.SourceManual, Currency: "EUR", Livemode: true, CreatedAt: now, UpdatedAt: now}
			r := domain.NewRegistration(o, e, c, domain.RegistrationInput{CategoryID: c.ID, TeamName: "T", Athletes: []domain.Athlete{athlete(fmt.Sprint("A", i), "FEMALE", "1990-01-01")}}, now)
			if err := repo.CreateOrder(ctx, o, []domain.Registration{r}, map[string]*int{c.ID: c.Quota}); err != nil {
				t.Errorf("create %d: %v", i, err)
			}
		}()
	}
	wg.Wait()
	held := put(t, repo, t0, "org_1", "evt_a", domain.OrderPending, domain.RegistrationInput{CategoryID: "cat_rx", Athletes: []domain.Athlete{athlete("Held", "MALE", "1990-01-01")}}, 0)
	paid := put(t, repo, t0, "org_1", "evt_a", domain.OrderCompleted, domain.RegistrationInput{CategoryID: "cat_women", Athletes: []domain.Athlete{athlete("Paid", "FEMALE", "1990-01-01")}}, 0)
	if _, err := repo.DeleteRegistration(ctx, liveOf("org_1"), paid.Tickets[0].ID, t0); err != nil {
		t.Fatal(err)
	}
	if _, err := repo.ReleaseOrder(ctx, liveOf("org_1"), held.OrderID, domain.ReleaseExpired, t0); err != nil {
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

	more := announceEveryOrderChange(t, repo, pool)
	produced = append(produced, more...)
	produced = append(produced, offerOnce(t, repo, pool)...)
	produced = append(produced, brokertest.Produced{Topic: domain.OrdersTopic, Type: domain.EventOrderUnfulfilled, Data: domain.OrderUnfulfillableEvent{
		OrderID: domain.NewOrderID(), Reason: domain.ReasonNoPlaceLeft, PaymentRef: "pi_3PqL8e2eZvKYlo2C1xT9mB4R",
	}})
	brokertest.LoadContracts(t, events.Files).Check(t, produced...)
}

// announceEveryOrderChange makes each change that writes a registrations or orders event (a
// create, a payment, an update, a cancel, a release for each reason, a refund) and returns
// every such event the outbox holds.
func announceEveryOrderChange(t *testing.T, repo *store.Repository, pool *pgxpool.Pool) []brokertest.Produced {
	t.Helper()
	ctx := t.Context()
	e := regtest.Event("evt_c", "org_1")
	in := domain.RegistrationInput{CategoryID: "cat_rx", Club: ptr("Box Norte"), Bib: ptr(int64(7)), Note: ptr("front row"),
		Athletes:      []domain.Athlete{athlete("Contract", "FEMALE", "1990-01-01")},
		CustomFields:  []domain.CustomFieldValue{{FieldID: "fld_size", Value: "M"}},
		SupplementIDs: []string{"sup_tee"}, SupplementSelections: []domain.SupplementSelection{{SupplementID: "sup_meal", OptionID: "opt_veg"}},
		Guest: &domain.Guest{Email: "guest@example.com", Name: "Guest"}}
	made := put(t, repo, t0, "org_1", e.ID, domain.OrderCompleted, in, 0)
	updateTeam(t, repo, e, made, "Renamed", t0.Add(time.Minute))
	scan := domain.Scan{TicketID: made.Tickets[0].ID, Nonce: "contract-scan-1", ScannedAt: t0, Device: "gate-a"}
	if res, err := repo.CheckIn(ctx, liveOf("org_1"), scan, t0.Add(time.Minute)); err != nil || res.Result != domain.ScanAccepted {
		t.Fatalf("check in: %+v %v", res, err)
	}
	transferTo(t, repo, e, made.Tickets[0].ID, athlete("Taker", "FEMALE", "1992-01-01"), t0.Add(90*time.Second))
	in.Bib = nil
	paid := put(t, repo, t0, "org_1", e.ID, domain.OrderPending, in, 4500)
	amount := int64(4500)
	if _, _, err := repo.ConfirmOrder(ctx, live, paid.OrderID, "pi_1", &amount, t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if _, err := repo.DeleteRegistration(ctx, liveOf("org_1"), paid.Tickets[0].ID, t0.Add(2*time.Minute)); err != nil {
		t.Fatal(err)
	}
	failed := put(t, repo, t0, "org_1", e.ID, domain.OrderPending, in, 4500)
	if _, err := repo.RefundOrder(ctx, live, failed.OrderID, t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	deleted := put(t, repo, t0, "org_1", e.ID, domain.OrderPending, in, 4500)
	if _, err := repo.DeleteRegistration(ctx, liveOf("org_1"), deleted.Tickets[0].ID, t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	rows, err := pool.Query(ctx, `SELECT topic, headers->>'ce_type', payload FROM outbox WHERE topic = ANY($1) ORDER BY id`,
		[]string{domain.OrdersTopic, domain.RegistrationsTopic})
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []brokertest.Produced
	for rows.Next() {
		var topic, typ string
		var payload []byte
		if err := rows.Scan(&topic, &typ, &payload); err != nil {
			t.Fatal(err)
		}
		out = append(out, brokertest.Produced{Topic: topic, Type: typ, Data: json.RawMessage(payload)})
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func ptr[T any](v T) *T { return &v }

// offerOnce puts someone in line for evt_a's cat_rx and offers them its free place, and
// returns the waitlist events the outbox holds.
func offerOnce(t *testing.T, repo *store.Repository, pool *pgxpool.Pool) []brokertest.Produced {
	t.Helper()
	e := regtest.Event("evt_a", "org_1")
	c, _ := e.Category("cat_rx")
	w := domain.NewWaitlistEntry(liveOf("org_1"), e, c, domain.JoinInput{CategoryID: c.ID, Email: "ana@example.com", Name: "Ana", TeamSize: 1, OfferURL: "https://shop.example/w"}, t0)
	if _, err := repo.JoinWaitlist(t.Context(), w, 0, domain.DefaultWaitlistLimits); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := repo.OfferNext(t.Context(), domain.CategoryMode{CategoryID: c.ID, EventID: e.ID, Livemode: true}, t0, t0.Add(time.Hour)); !ok || err != nil {
		t.Fatalf("offer: %v, %v", ok, err)
	}
	rows, err := pool.Query(t.Context(), `SELECT headers->>'ce_type', payload FROM outbox WHERE topic = $1 ORDER BY id`, domain.WaitlistTopic)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []brokertest.Produced
	for rows.Next() {
		var typ string
		var payload []byte
		if err := rows.Scan(&typ, &payload); err != nil {
			t.Fatal(err)
		}
		out = append(out, brokertest.Produced{Topic: domain.WaitlistTopic, Type: typ, Data: json.RawMessage(payload)})
	}
	if len(out) != 1 {
		t.Fatalf("%d waitlist events, want 1", len(out))
	}
	return out
}

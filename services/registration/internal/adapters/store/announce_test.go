package store_test

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/podiumhq/podium/services/registration/internal/adapters/store"
	"github.com/podiumhq/podium/services/registration/internal/domain"
	"github.com/podiumhq/podium/services/registration/internal/regtest"
)

// announced is an order or registration event as the outbox holds it.
type announced struct {
	Topic, Key, Type string
	Data             json.RawMessage
}

// outboxWatch reads what the outbox gained on the orders and registrations topics since the
// last read (the places events are another test's).
type outboxWatch struct {
	t    *testing.T
	pool *pgxpool.Pool
	last int64
}

func (w *outboxWatch) since() []announced {
	w.t.Helper()
	rows, err := w.pool.Query(w.t.Context(), `SELECT id, topic, key, headers->>'ce_type', payload FROM outbox
		WHERE id > $1 AND topic = ANY($2) ORDER BY id`, w.last, []string{domain.OrdersTopic, domain.RegistrationsTopic})
	if err != nil {
		w.t.Fatal(err)
	}
	defer rows.Close()
	var out []announced
	for rows.Next() {
		var a announced
		var id int64
		if err := rows.Scan(&id, &a.Topic, &a.Key, &a.Type, &a.Data); err != nil {
			w.t.Fatal(err)
		}
		w.last = max(w.last, id)
		out = append(out, a)
	}
	if err := rows.Err(); err != nil {
		w.t.Fatal(err)
	}
	return out
}

// expect checks that the outbox gained exactly want (type and key, in order) since the last
// read, and returns their data.
func (w *outboxWatch) expect(step string, want ...announced) []json.RawMessage {
	w.t.Helper()
	got := w.since()
	same := len(got) == len(want)
	for i := 0; same && i < len(got); i++ {
		same = got[i].Type == want[i].Type && got[i].Key == want[i].Key && got[i].Topic == topicOf(want[i].Type)
	}
	if !same {
		w.t.Fatalf("%s announced %v, want %v", step, brief(got), brief(want))
	}
	data := make([]json.RawMessage, len(got))
	for i, a := range got {
		data[i] = a.Data
	}
	return data
}

func topicOf(typ string) string {
	if slices.Contains([]string{domain.EventRegCreated, domain.EventRegUpdated, domain.EventRegCancelled}, typ) {
		return domain.RegistrationsTopic
	}
	return domain.OrdersTopic
}

func brief(as []announced) []string {
	out := make([]string, len(as))
	for i, a := range as {
		out[i] = a.Type + " " + a.Key
	}
	return out
}

func ev(typ, key string) announced { return announced{Type: typ, Key: key} }

func decode[T any](t *testing.T, b json.RawMessage) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return v
}

// TestEachChangeAnnouncesItsEvents: every change of an order or registration writes exactly
// its events in its transaction, with the objects as the change left them: an organizer's
// create and a paid hold announce their registrations' creation (and the payment the order's
// completion), an update and a cancellation of a confirmed registration theirs, a lapsed or
// deleted hold only its order's release, a refund the order's refund; a hold, a change of an
// unconfirmed registration and a repeated payment nothing.
func TestEachChangeAnnouncesItsEvents(t *testing.T) {
	pool := regtest.NewPool(t, 0)
	repo := store.New(pool)
	ctx := t.Context()
	w := &outboxWatch{t: t, pool: pool}
	e := regtest.Event("evt_1", "org_1")
	rx := domain.RegistrationInput{CategoryID: "cat_rx", Athletes: []domain.Athlete{athlete("Ana", "FEMALE", "1990-01-01")},
		CustomFields: []domain.CustomFieldValue{{FieldID: "fld_size", Value: "M"}}}

	made := put(t, repo, t0, "org_1", "evt_1", domain.OrderCompleted, rx, 0)
	created := decode[domain.RegistrationEvent](t, w.expect("an organizer's create", ev(domain.EventRegCreated, made.ID))[0])
	if created.OrganizerID != "org_1" || !created.Livemode || !created.OccurredAt.Equal(t0) ||
		created.Object.RegistrationID != made.ID || created.Object.Order == nil || created.Object.Order.Status != "COMPLETED" || len(created.Object.Tickets) != 1 {
		t.Fatalf("created: %+v", created)
	}

	held := put(t, repo, t0, "org_1", "evt_1", domain.OrderPending, rx, 4500)
	w.expect("a hold")
	updateTeam(t, repo, e, held, "Still unpaid", t0.Add(time.Minute))
	w.expect("an update of an unpaid registration")

	paidAt := t0.Add(2 * time.Minute)
	amount := int64(4500)
	if _, _, err := repo.ConfirmOrder(ctx, live, held.OrderID, "pi_1", &amount, paidAt); err != nil {
		t.Fatal(err)
	}
	data := w.expect("a payment", ev(domain.EventRegCreated, held.ID), ev(domain.EventOrderCompleted, held.OrderID))
	reg := decode[domain.RegistrationEvent](t, data[0])
	completed := decode[domain.OrderCompletedEvent](t, data[1])
	if reg.Object.Order.Status != "COMPLETED" || reg.Object.Order.PaidAt == nil || !reg.Object.Order.PaidAt.Equal(paidAt) || reg.Object.TeamName != "Still unpaid" ||
		completed.Object.Status != "COMPLETED" || !slices.Equal(completed.Object.RegistrationIDs, []string{held.ID}) ||
		!slices.Equal(completed.Object.TicketIDs, []string{held.Tickets[0].ID}) || !completed.OccurredAt.Equal(paidAt) || completed.OrganizerID != "org_1" {
		t.Fatalf("payment: %s", data)
	}
	if _, _, err := repo.ConfirmOrder(ctx, live, held.OrderID, "pi_1", &amount, paidAt.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	w.expect("the same payment again")

	updateTeam(t, repo, e, made, "Renamed", t0.Add(3*time.Minute))
	updated := decode[domain.RegistrationEvent](t, w.expect("an organizer's update", ev(domain.EventRegUpdated, made.ID))[0])
	if updated.Object.TeamName != "Renamed" || !updated.OccurredAt.Equal(t0.Add(3*time.Minute)) || !updated.Object.UpdatedAt.Equal(updated.OccurredAt) {
		t.Fatalf("updated: %+v", updated)
	}

	cancelAt := t0.Add(4 * time.Minute)
	if _, err := repo.DeleteRegistration(ctx, liveOf("org_1"), made.Tickets[0].ID, cancelAt); err != nil {
		t.Fatal(err)
	}
	cancelled := decode[domain.RegistrationEvent](t, w.expect("a cancel", ev(domain.EventRegCancelled, made.ID))[0])
	if cancelled.Object.CancelledAt == nil || !cancelled.Object.CancelledAt.Equal(cancelAt) || cancelled.Object.Tickets[0].Status != "CANCELLED" || cancelled.Object.TeamName != "Renamed" {
		t.Fatalf("cancelled: %+v", cancelled)
	}
	if _, err := repo.DeleteRegistration(ctx, liveOf("org_1"), made.Tickets[0].ID, cancelAt.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	w.expect("the same cancel again")

	lapsed := put(t, repo, t0, "org_1", "evt_1", domain.OrderPending, rx, 4500)
	w.expect("a hold")
	if _, err := repo.ReleaseOrder(ctx, live, lapsed.OrderID, domain.ReleaseExpired, t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	released := decode[domain.OrderReleasedEvent](t, w.expect("a lapsed hold", ev(domain.EventOrderReleased, lapsed.OrderID))[0])
	if released.Reason != domain.ReleaseExpired || released.Object.Status != "CANCELLED" || released.Object.ReleaseReason != domain.ReleaseExpired ||
		!slices.Equal(released.Object.RegistrationIDs, []string{lapsed.ID}) || released.OrganizerID != "org_1" {
		t.Fatalf("released: %+v", released)
	}
	if _, err := repo.RefundOrder(ctx, live, lapsed.OrderID, t0.Add(2*time.Hour)); err != nil {
		t.Fatal(err)
	}
	refunded := decode[domain.OrderRefundedEvent](t, w.expect("a refund", ev(domain.EventOrderRefunded, lapsed.OrderID))[0])
	if refunded.Object.Status != "REFUNDED" || refunded.EventID != "evt_1" || !refunded.OccurredAt.Equal(t0.Add(2*time.Hour)) {
		t.Fatalf("refunded: %+v", refunded)
	}

	unpaid := put(t, repo, t0, "org_1", "evt_1", domain.OrderPending, rx, 4500)
	w.expect("a hold")
	if _, err := repo.RefundOrder(ctx, live, unpaid.OrderID, t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	data = w.expect("a refund of an unpaid order", ev(domain.EventOrderReleased, unpaid.OrderID), ev(domain.EventOrderRefunded, unpaid.OrderID))
	if r := decode[domain.OrderReleasedEvent](t, data[0]); r.Reason != domain.ReleaseFailed || r.Object.Status != "FAILED" {
		t.Fatalf("released before the refund: %+v", r)
	}

	deleted := put(t, repo, t0, "org_1", "evt_1", domain.OrderPending, rx, 4500)
	w.expect("a hold")
	if _, err := repo.DeleteRegistration(ctx, liveOf("org_1"), deleted.Tickets[0].ID, t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	gone := decode[domain.OrderReleasedEvent](t, w.expect("a deleted hold", ev(domain.EventOrderReleased, deleted.OrderID))[0])
	if gone.Reason != domain.ReleaseCancelled || len(gone.Object.RegistrationIDs) != 0 || len(gone.Object.TicketIDs) != 0 {
		t.Fatalf("deleted hold: %+v", gone)
	}
}

// TestALatePaymentAnnouncesWhatItFound: a payment after the hold lapsed announces the
// registrations' creation and the order's completion when it takes the places again, and only
// the order's unfulfillability when none is left; an organizer's order of several
// registrations announces each.
func TestALatePaymentAnnouncesWhatItFound(t *testing.T) {
	pool := regtest.NewPool(t, 0)
	repo := store.New(pool)
	ctx := t.Context()
	w := &outboxWatch{t: t, pool: pool}
	e := regtest.Event("evt_1", "org_1")
	if err := createAthletes(t, repo, e, t0, "cat_masters", "A", "B"); err != nil {
		t.Fatal(err)
	}
	two := w.since()
	if len(two) != 2 || two[0].Type != domain.EventRegCreated || two[1].Type != domain.EventRegCreated || two[0].Key == two[1].Key {
		t.Fatalf("an order of two registrations announced %v", brief(two))
	}
	masters := domain.RegistrationInput{CategoryID: "cat_masters", Athletes: []domain.Athlete{athlete("Late", "MALE", "1970-01-01")}}
	late := put(t, repo, t0, "org_1", "evt_1", domain.OrderPending, masters, 4500)
	short := put(t, repo, t0, "org_1", "evt_1", domain.OrderPending, masters, 4500)
	for _, o := range []domain.Registration{late, short} {
		if _, err := repo.ReleaseOrder(ctx, live, o.OrderID, domain.ReleaseExpired, t0.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	w.expect("two lapsed holds", ev(domain.EventOrderReleased, late.OrderID), ev(domain.EventOrderReleased, short.OrderID))
	amount := int64(4500)
	if _, _, err := repo.ConfirmOrder(ctx, live, late.OrderID, "pi_late", &amount, t0.Add(2*time.Hour)); err != nil {
		t.Fatal(err)
	}
	data := w.expect("a late payment with places left", ev(domain.EventRegCreated, late.ID), ev(domain.EventOrderCompleted, late.OrderID))
	if r := decode[domain.RegistrationEvent](t, data[0]); r.Object.CancelledAt != nil || r.Object.Tickets[0].Status != "ACTIVE" {
		t.Fatalf("retaken registration: %+v", r.Object)
	}
	if err := createAthletes(t, repo, e, t0, "cat_masters", "C", "D"); err != nil { // the quota of 5 is full
		t.Fatal(err)
	}
	w.since()
	if _, _, err := repo.ConfirmOrder(ctx, live, short.OrderID, "pi_short", &amount, t0.Add(2*time.Hour)); err == nil {
		t.Fatal("a late payment without a place left was confirmed")
	}
	w.expect("a late payment without a place", ev(domain.EventOrderUnfulfilled, short.OrderID))
}

// updateTeam renames the team of r as the organizer's update does.
func updateTeam(t *testing.T, repo *store.Repository, e domain.Event, r domain.Registration, name string, at time.Time) {
	t.Helper()
	_, err := repo.UpdateRegistration(t.Context(), liveOf(r.OrganizerID), r.Tickets[0].ID, func(cur domain.Registration) (domain.UpdatePlan, error) {
		return domain.PlanUpdate(e, cur, domain.Patch{TeamName: &name}, at)
	}, func(string) *int { return nil })
	if err != nil {
		t.Fatalf("update: %v", err)
	}
}

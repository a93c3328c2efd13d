package http_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/registration/internal/domain"
	"github.com/podiumhq/podium/services/registration/internal/regtest"
)

func holdBody(holdID string, expires time.Time, regs ...map[string]any) map[string]any {
	return map[string]any{
		"holdId": holdID, "eventId": evtA, "expiresAt": expires.UTC().Format(time.RFC3339), "currency": "EUR", "amount": 6500,
		"purchaserEmail": "buyer@example.com", "purchaserName": "Buyer", "registrations": regs,
	}
}

func holdReg(name string) map[string]any {
	return map[string]any{"categoryId": "cat_rx", "teamName": "Team " + name, "athletes": []any{athlete(name, "MALE", "1990-01-01")},
		"customFields": []any{map[string]any{"fieldId": "fld_size", "value": "S"}}}
}

func places(t *testing.T, env *regtest.Env, cat string) (confirmed, held int) {
	t.Helper()
	_ = env.Pool.QueryRow(context.Background(), `SELECT confirmed, held FROM places WHERE category_id = $1`, cat).Scan(&confirmed, &held)
	return
}

func orderStatus(t *testing.T, env *regtest.Env, id string) string {
	t.Helper()
	var s string
	if err := env.Pool.QueryRow(context.Background(), `SELECT status FROM orders WHERE id = $1`, id).Scan(&s); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestHoldConfirmRelease(t *testing.T) {
	env := start(t, regtest.Options{})
	tok := env.Browser(t, orgA) // sent to the hold routes as checkout calls them for this key
	exp := time.Now().Add(30 * time.Minute)
	r := env.Do(t, "POST", "/internal/holds", holdBody("idem-1", exp, holdReg("Ana"), holdReg("Bea")), tok)
	if r.Status != 201 || r.Body["status"] != "PENDING" || len(r.Body["registrations"].([]any)) != 2 {
		t.Fatalf("hold: %d %s", r.Status, r.Raw)
	}
	order := r.Body["orderId"].(string)
	if c, h := places(t, env, "cat_rx"); c != 0 || h != 2 {
		t.Fatalf("places %d/%d", c, h)
	}
	again := env.Do(t, "POST", "/internal/holds", holdBody("idem-1", exp, holdReg("Ana"), holdReg("Bea")), tok)
	if again.Status != 200 || again.Body["orderId"] != order {
		t.Fatalf("same hold id: %d %s", again.Status, again.Raw)
	}
	young := holdReg("Kid")
	young["athletes"] = []any{athlete("Kid", "MALE", "2015-01-01")}
	wantError(t, env.Do(t, "POST", "/internal/holds", holdBody("idem-2", exp, young), tok), 422, "registrations[0].athletes[0].birthDate: athlete is 12")
	wantError(t, env.Do(t, "POST", "/internal/holds", map[string]any{"eventId": evtA}, tok), 400, "holdId is required", "registrations must have at least 1 item")

	for range 2 {
		c := env.Do(t, "POST", "/internal/holds/"+order+"/confirm", map[string]any{"paymentRef": "pi_1", "amountPaid": 6500}, tok)
		if c.Status != 200 || c.Body["status"] != "COMPLETED" {
			t.Fatalf("confirm: %d %s", c.Status, c.Raw)
		}
	}
	if c, h := places(t, env, "cat_rx"); c != 2 || h != 0 {
		t.Fatalf("places after confirm %d/%d", c, h)
	}
	wantError(t, env.Do(t, "POST", "/internal/holds/"+order+"/release", map[string]any{"reason": "CANCELLED"}, tok), 409, "COMPLETED")

	// A released hold frees its places; releasing again is harmless.
	r = env.Do(t, "POST", "/internal/holds", holdBody("idem-3", exp, holdReg("Cid")), tok)
	o3 := r.Body["orderId"].(string)
	for range 2 {
		rel := env.Do(t, "POST", "/internal/holds/"+o3+"/release", map[string]any{"reason": "FAILED"}, tok)
		if rel.Status != 200 || rel.Body["status"] != "FAILED" {
			t.Fatalf("release: %d %s", rel.Status, rel.Raw)
		}
	}
	if c, h := places(t, env, "cat_rx"); c != 2 || h != 0 {
		t.Fatalf("places after release %d/%d", c, h)
	}
	// Searchable: its ticket is CANCELLED, the order FAILED.
	s := env.Do(t, "POST", "/external/v1/organizer/registrations/search", map[string]any{"status": "FAILED", "ticketStatus": "ALL"}, env.Secret(t, orgA))
	if s.Body["total"].(float64) != 1 {
		t.Fatalf("failed order search %s", s.Raw)
	}
	// A late payment takes the place again when one is left.
	late := env.Do(t, "POST", "/internal/holds/"+o3+"/confirm", map[string]any{"paymentRef": "pi_3"}, tok)
	if late.Status != 200 || late.Body["status"] != "COMPLETED" {
		t.Fatalf("late confirm: %d %s", late.Status, late.Raw)
	}
	if c, _ := places(t, env, "cat_rx"); c != 3 {
		t.Fatalf("confirmed %d after the late payment", c)
	}
	s = env.Do(t, "POST", "/external/v1/organizer/registrations/search", map[string]any{"status": "COMPLETED"}, env.Secret(t, orgA))
	if s.Body["total"].(float64) != 3 {
		t.Fatalf("completed active tickets %s", s.Raw)
	}
}

func TestLatePaymentWithoutPlaceIsUnfulfillable(t *testing.T) {
	env := start(t, regtest.Options{Kafka: true})
	e := regtest.Event(evtA, orgA)
	e.Categories[0].Quota = intp(1)
	env.Catalog.Put(e)
	tok := env.Browser(t, orgA)
	r := env.Do(t, "POST", "/internal/holds", holdBody("h-1", time.Now().Add(time.Minute), holdReg("Ana")), tok)
	order := r.Body["orderId"].(string)
	env.Do(t, "POST", "/internal/holds/"+order+"/release", map[string]any{"reason": "EXPIRED"}, tok)
	create(t, env, createBody("Bea")) // takes the last place
	c := env.Do(t, "POST", "/internal/holds/"+order+"/confirm", map[string]any{"paymentRef": "pi_9"}, tok)
	if c.Status != 409 || c.Body["reason"] != "NO_PLACE_LEFT" || c.Body["statusCode"].(float64) != 409 {
		t.Fatalf("late confirm without place: %d %s", c.Status, c.Raw)
	}
	if s := orderStatus(t, env, order); s != "FAILED" {
		t.Fatalf("order %s", s)
	}
	got := consume(t, env, domain.OrdersTopic, func(m broker.Message) bool {
		return m.Headers[broker.HeaderType] == domain.EventOrderUnfulfilled
	})
	var data map[string]any
	_ = json.Unmarshal(got.Value, &data)
	if got.Key != order || data["reason"] != "NO_PLACE_LEFT" || data["paymentRef"] != "pi_9" {
		t.Fatalf("unfulfillable event %s %s", got.Key, got.Value)
	}
}

// TestHoldKeepsGuestContacts: a registration bought for a guest keeps the guest's e-mail and
// name, shown on its search rows; the buyer's own registration has none. A contact without a
// valid e-mail or a name is refused.
func TestHoldKeepsGuestContacts(t *testing.T) {
	env := start(t, regtest.Options{})
	tok := env.Browser(t, orgA)
	guest := holdReg("Bea")
	guest["guestEmail"], guest["guestName"] = "bea@example.com", "Bea Guest"
	r := env.Do(t, "POST", "/internal/holds", holdBody("guest-1", time.Now().Add(time.Hour), holdReg("Ana"), guest), tok)
	if r.Status != 201 {
		t.Fatalf("hold: %d %s", r.Status, r.Raw)
	}
	s := env.Do(t, "POST", "/external/v1/organizer/registrations/search", map[string]any{"status": "PENDING", "sortBy": "athlete-asc"}, env.Secret(t, orgA))
	rows, _ := s.Body["data"].([]any)
	if s.Status != 201 || len(rows) != 2 {
		t.Fatalf("search: %d %s", s.Status, s.Raw)
	}
	own := rows[0].(map[string]any)["registration"].(map[string]any)
	bought := rows[1].(map[string]any)["registration"].(map[string]any)
	if _, ok := own["guest"]; ok {
		t.Fatalf("the buyer's own registration has a guest: %v", own["guest"])
	}
	if g, _ := bought["guest"].(map[string]any); g["email"] != "bea@example.com" || g["name"] != "Bea Guest" {
		t.Fatalf("guest registration: %v", bought["guest"])
	}

	bad := holdReg("Cid")
	bad["guestEmail"], bad["guestName"] = "cid", "C"
	wantError(t, env.Do(t, "POST", "/internal/holds", holdBody("guest-2", time.Now().Add(time.Hour), bad), tok), 400,
		"registrations[0].guestEmail: must be a valid e-mail address", "registrations[0].guestName: must be at least 2 characters long")
}

// consume reads topic from the start until match accepts a message.
func consume(t *testing.T, env *regtest.Env, topic string, match func(broker.Message) bool) broker.Message {
	t.Helper()
	got := make(chan broker.Message, 100)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- broker.Consume(ctx, broker.ConsumerConfig{Brokers: env.Brokers, Group: fmt.Sprint("test-", rand.Int()), Topics: []string{topic}, Log: testkit.Logger(t)},
			func(_ context.Context, m broker.Message) error {
				if match(m) {
					got <- m
				}
				return nil
			})
	}()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("consume: %v", err)
		}
	}()
	select {
	case m := <-got:
		return m
	case <-time.After(30 * time.Second):
		t.Fatalf("no matching message on %s within 30s", topic)
	}
	return broker.Message{}
}

func TestPlacesEventsAreRelayed(t *testing.T) {
	env := start(t, regtest.Options{Kafka: true})
	reg := create(t, env, createBody("Ana"))
	create(t, env, createBody("Bea"))
	env.Do(t, "DELETE", "/external/v1/organizer/registrations/"+ticketOf(reg, 0), nil, env.Secret(t, orgA))
	m := consume(t, env, domain.PlacesTopic, func(m broker.Message) bool {
		var p domain.PlacesChanged
		_ = json.Unmarshal(m.Value, &p)
		return p.Version == 3
	})
	var p map[string]any
	_ = json.Unmarshal(m.Value, &p)
	if m.Key != "cat_rx" || m.Headers[broker.HeaderType] != domain.EventPlacesChanged || m.Headers[broker.HeaderSource] != domain.EventSource ||
		p["eventId"] != evtA || p["categoryId"] != "cat_rx" || p["confirmed"].(float64) != 1 || p["held"].(float64) != 0 || p["occurredAt"] == nil {
		t.Fatalf("places event %s %v %s", m.Key, m.Headers, m.Value)
	}
}

func TestPaymentsConsumer(t *testing.T) {
	env := start(t, regtest.Options{Kafka: true})
	regtest.Background(t, func(ctx context.Context) error { return consumePayments(ctx, env, nil) })
	tok := env.Browser(t, orgA)
	o1 := env.Do(t, "POST", "/internal/holds", holdBody("p-1", time.Now().Add(time.Hour), holdReg("Ana")), tok).Body["orderId"].(string)
	o2 := env.Do(t, "POST", "/internal/holds", holdBody("p-2", time.Now().Add(time.Hour), holdReg("Bea")), tok).Body["orderId"].(string)
	w := broker.NewWriter(env.Brokers)
	defer w.Close()
	msg := func(id, typ, order string, data map[string]any) broker.Message {
		data["orderId"] = order
		v, _ := json.Marshal(data)
		return broker.Message{Topic: domain.PaymentsTopic, Key: order, Value: v, Headers: map[string]string{broker.HeaderID: id, broker.HeaderType: typ}}
	}
	succeeded := msg("m1", domain.EventPaymentSucceeded, o1, map[string]any{"sessionId": "cs_1", "paymentRef": "pi_1", "amount": 6500, "currency": "EUR", "paidAt": time.Now()})
	failed := msg("m2", domain.EventPaymentFailed, o2, map[string]any{"sessionId": "cs_2", "reason": "EXPIRED"})
	// Duplicates, and a failure or a refund arriving after the success for the same order, are
	// harmless: checkout refunds only orders that found no place.
	lateFail := msg("m3", domain.EventPaymentFailed, o1, map[string]any{"sessionId": "cs_1", "reason": "FAILED"})
	strayRefund := msg("m4", domain.EventPaymentRefunded, o1, map[string]any{"sessionId": "cs_1", "refundId": "re_1", "amount": 6500, "currency": "EUR"})
	if err := w.Publish(context.Background(), succeeded, succeeded, failed, lateFail, strayRefund, failed); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if orderStatus(t, env, o1) == "COMPLETED" && orderStatus(t, env, o2) == "CANCELLED" {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if s1, s2 := orderStatus(t, env, o1), orderStatus(t, env, o2); s1 != "COMPLETED" || s2 != "CANCELLED" {
		t.Fatalf("orders %s %s", s1, s2)
	}
	time.Sleep(300 * time.Millisecond) // let the late failure and duplicates be handled
	if c, h := places(t, env, "cat_rx"); c != 1 || h != 0 || orderStatus(t, env, o1) != "COMPLETED" {
		t.Fatalf("places %d/%d, order %s", c, h, orderStatus(t, env, o1))
	}
	var n int
	_ = env.Pool.QueryRow(context.Background(), `SELECT count(*) FROM inbox WHERE consumer = 'registration-payments'`).Scan(&n)
	if n != 4 {
		t.Fatalf("inbox has %d messages, want 4", n)
	}
}

func TestSweeperReleasesExpiredHolds(t *testing.T) {
	env := start(t, regtest.Options{})
	tok := env.Browser(t, orgA)
	o := env.Do(t, "POST", "/internal/holds", holdBody("s-1", time.Now().Add(time.Minute), holdReg("Ana")), tok).Body["orderId"].(string)
	keep := env.Do(t, "POST", "/internal/holds", holdBody("s-2", time.Now().Add(time.Hour), holdReg("Bea")), tok).Body["orderId"].(string)
	if n, err := env.Service.SweepExpired(context.Background(), 10); err != nil || n != 0 {
		t.Fatalf("swept %d (%v) before expiry", n, err)
	}
	env.Clock.Advance(2 * time.Minute)
	if n, err := env.Service.SweepExpired(context.Background(), 10); err != nil || n != 1 {
		t.Fatalf("swept %d (%v)", n, err)
	}
	if orderStatus(t, env, o) != "CANCELLED" || orderStatus(t, env, keep) != "PENDING" {
		t.Fatalf("orders %s %s", orderStatus(t, env, o), orderStatus(t, env, keep))
	}
	var reason string
	_ = env.Pool.QueryRow(context.Background(), `SELECT release_reason FROM orders WHERE id = $1`, o).Scan(&reason)
	if c, h := places(t, env, "cat_rx"); c != 0 || h != 1 || reason != "EXPIRED" {
		t.Fatalf("places %d/%d reason %s", c, h, reason)
	}
	// The sweeper loop does the same on its own.
	env.Clock.Advance(2 * time.Hour)
	regtest.Background(t, func(ctx context.Context) error {
		return env.Service.RunSweeper(ctx, 20*time.Millisecond, testkit.Logger(t))
	})
	deadline := time.Now().Add(5 * time.Second)
	for orderStatus(t, env, keep) != "CANCELLED" && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if orderStatus(t, env, keep) != "CANCELLED" {
		t.Fatal("the sweeper loop did not release the expired hold")
	}
}

// TestHoldsConfirmationsAndCreatesInterleaved races creates, holds, confirmations and
// releases on one category and checks the quota held and the ledger equals the rows.
func TestHoldsConfirmationsAndCreatesInterleaved(t *testing.T) {
	env := start(t, regtest.Options{MaxConns: 30})
	e := regtest.Event(evtA, orgA)
	e.Categories[0].Quota = intp(20)
	env.Catalog.Put(e)
	secret, browser := env.Secret(t, orgA), env.Browser(t, orgA)
	var wg sync.WaitGroup
	for i := range 80 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			name := fmt.Sprintf("R%02d", i)
			if i%2 == 0 {
				env.Do(t, "POST", "/external/v1/organizer/registrations", createBody(name), secret)
				return
			}
			r := env.Do(t, "POST", "/internal/holds", holdBody("mix-"+name, time.Now().Add(time.Hour), holdReg(name)), browser)
			if r.Status != 201 {
				return
			}
			order := r.Body["orderId"].(string)
			switch i % 4 {
			case 1:
				env.Do(t, "POST", "/internal/holds/"+order+"/confirm", map[string]any{"paymentRef": "pi_" + name}, browser)
			case 3:
				env.Do(t, "POST", "/internal/holds/"+order+"/release", map[string]any{"reason": "CANCELLED"}, browser)
			}
		}()
	}
	wg.Wait()
	var confirmed, held, wantConfirmed, wantHeld int
	_ = env.Pool.QueryRow(context.Background(), `SELECT confirmed, held FROM places WHERE category_id = 'cat_rx'`).Scan(&confirmed, &held)
	_ = env.Pool.QueryRow(context.Background(), `SELECT
		count(*) FILTER (WHERE o.status = 'COMPLETED'), count(*) FILTER (WHERE o.status = 'PENDING')
		FROM registrations r JOIN orders o ON o.id = r.order_id WHERE r.category_id = 'cat_rx' AND r.cancelled_at IS NULL`).Scan(&wantConfirmed, &wantHeld)
	if confirmed != wantConfirmed || held != wantHeld || confirmed+held > 20 {
		t.Fatalf("ledger %d confirmed + %d held; rows %d + %d (quota 20)", confirmed, held, wantConfirmed, wantHeld)
	}
	if confirmed+held < 10 {
		t.Fatalf("only %d places taken: the race did not contend", confirmed+held)
	}
}

// TestLastPlacesRaceWithHolds races 50 requests for the last 5 places: creates and holds (each
// successful hold confirmed at once) interleaved. Exactly 5 get a place, 45 are refused, and
// once confirmed the ledger shows every place confirmed.
func TestLastPlacesRaceWithHolds(t *testing.T) {
	env := start(t, regtest.Options{MaxConns: 30})
	e := regtest.Event(evtA, orgA)
	e.Categories[0].Quota = intp(8)
	env.Catalog.Put(e)
	for i := range 3 {
		create(t, env, createBody(fmt.Sprint("Early", i)))
	}
	secret, browser := env.Secret(t, orgA), env.Browser(t, orgA)
	var wg sync.WaitGroup
	var mu sync.Mutex
	count := map[int]int{}
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			name := fmt.Sprintf("Racer%02d", i)
			var r regtest.Response
			if i%2 == 0 {
				r = env.Do(t, "POST", "/external/v1/organizer/registrations", createBody(name), secret)
			} else {
				r = env.Do(t, "POST", "/internal/holds", holdBody("race-"+name, time.Now().Add(time.Hour), holdReg(name)), browser)
				if r.Status == 201 {
					c := env.Do(t, "POST", "/internal/holds/"+r.Body["orderId"].(string)+"/confirm", map[string]any{"paymentRef": "pi_" + name}, browser)
					if c.Status != 200 {
						t.Errorf("confirm: %d %s", c.Status, c.Raw)
					}
				}
			}
			if r.Status == 409 && !strings.Contains(r.Text(), "category cat_rx is sold out") {
				t.Errorf("409 message %s", r.Raw)
			}
			mu.Lock()
			count[r.Status]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	if count[201] != 5 || count[409] != 45 {
		t.Fatalf("statuses %v, want 5 x 201 and 45 x 409", count)
	}
	if c, h := places(t, env, "cat_rx"); c != 8 || h != 0 {
		t.Fatalf("ledger %d confirmed, %d held; want 8 and 0", c, h)
	}
}

// TestLatePaymentThroughTheConsumer: a payment that arrives after its hold expired and finds
// no place left leaves the order FAILED and publishes the unfulfillable event.
func TestLatePaymentThroughTheConsumer(t *testing.T) {
	env := start(t, regtest.Options{Kafka: true})
	e := regtest.Event(evtA, orgA)
	e.Categories[0].Quota = intp(1)
	env.Catalog.Put(e)
	regtest.Background(t, func(ctx context.Context) error { return consumePayments(ctx, env, nil) })
	tok := env.Browser(t, orgA)
	order := env.Do(t, "POST", "/internal/holds", holdBody("late-1", time.Now().Add(time.Minute), holdReg("Ana")), tok).Body["orderId"].(string)
	env.Clock.Advance(2 * time.Minute)
	if n, _ := env.Service.SweepExpired(context.Background(), 10); n != 1 {
		t.Fatalf("swept %d", n)
	}
	create(t, env, createBody("Bea")) // the last place
	w := broker.NewWriter(env.Brokers)
	defer w.Close()
	v, _ := json.Marshal(map[string]any{"orderId": order, "sessionId": "cs_1", "paymentRef": "pi_late", "amount": 6500, "currency": "EUR"})
	if err := w.Publish(context.Background(), broker.Message{Topic: domain.PaymentsTopic, Key: order, Value: v,
		Headers: map[string]string{broker.HeaderID: "late-msg", broker.HeaderType: domain.EventPaymentSucceeded}}); err != nil {
		t.Fatal(err)
	}
	m := consume(t, env, domain.OrdersTopic, func(m broker.Message) bool {
		return m.Headers[broker.HeaderType] == domain.EventOrderUnfulfilled
	})
	if m.Key != order || orderStatus(t, env, order) != "FAILED" {
		t.Fatalf("unfulfillable event for %s, order %s", m.Key, orderStatus(t, env, order))
	}
	if c, h := places(t, env, "cat_rx"); c != 1 || h != 0 {
		t.Fatalf("ledger %d/%d", c, h)
	}

	// Checkout returned the payment: the order reads REFUNDED, its tickets stay cancelled and
	// no place moves; a redelivery changes nothing.
	v, _ = json.Marshal(map[string]any{"orderId": order, "sessionId": "cs_1", "refundId": "re_1", "amount": 6500, "currency": "EUR"})
	refunded := broker.Message{Topic: domain.PaymentsTopic, Key: order, Value: v,
		Headers: map[string]string{broker.HeaderID: "refund-msg", broker.HeaderType: domain.EventPaymentRefunded}}
	if err := w.Publish(context.Background(), refunded, refunded); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for orderStatus(t, env, order) != "REFUNDED" && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	var ticketStatus, ticketOrderStatus string
	if err := env.Pool.QueryRow(context.Background(), `SELECT DISTINCT status, order_status FROM tickets WHERE order_id = $1`, order).
		Scan(&ticketStatus, &ticketOrderStatus); err != nil || ticketStatus != "CANCELLED" || ticketOrderStatus != "REFUNDED" {
		t.Fatalf("order %s, tickets %s on %s (%v)", orderStatus(t, env, order), ticketStatus, ticketOrderStatus, err)
	}
	if c, h := places(t, env, "cat_rx"); c != 1 || h != 0 {
		t.Fatalf("ledger after the refund %d/%d", c, h)
	}
}

package api_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/registration/internal/domain"
	"github.com/podiumhq/podium/services/registration/internal/regtest"
)

// cappedHold is a hold of n places (n registrations of cat_rx) for purchaser from network,
// expiring at exp.
func cappedHold(id string, n int, purchaser, network string, exp time.Time) map[string]any {
	regs := make([]map[string]any, n)
	for i := range regs {
		regs[i] = holdReg(fmt.Sprintf("%s-%d", id, i))
	}
	b := holdBody(id, exp, regs...)
	b["purchaserEmail"], b["clientNetwork"] = purchaser, network
	return b
}

// unlimited starts the service with the fixture event's cat_rx without a quota, so only the
// caps on unpaid places can refuse a hold.
func unlimited(t *testing.T) *regtest.Env {
	t.Helper()
	env := start(t, regtest.Options{})
	e := regtest.Event(evtA, orgA)
	e.Categories[0].Quota = nil
	env.Catalog.Put(e)
	return env
}

// wantLimited checks a 429 in the standard format whose Retry-After is the seconds until
// lapse (now being the service clock's time of the request, within a second).
func wantLimited(t *testing.T, r testkit.Response, lapse, now time.Time, parts ...string) {
	t.Helper()
	wantError(t, r, 429, parts...)
	got, err := strconv.Atoi(r.Header.Get("Retry-After"))
	want := int(lapse.Sub(now).Seconds())
	if err != nil || got < want-1 || got > want+1 {
		t.Fatalf("Retry-After %q, want about %d s (until enough holds lapse)", r.Header.Get("Retry-After"), want)
	}
}

// TestUnpaidPlacesAreCappedPerAddress: one client network holds at most 33 unpaid places of
// an event at once (three full purchases); the next hold from it is refused with 429 until the
// earliest of its holds lapses (which frees enough for one place), while a buyer from another
// network still holds places. Two IPv6 addresses of one /64 are one network.
func TestUnpaidPlacesAreCappedPerAddress(t *testing.T) {
	env := unlimited(t)
	tok := env.Browser(t, orgA)
	now := env.Clock.Now()
	first := now.Add(10 * time.Minute)
	for i, exp := range []time.Time{first, now.Add(11 * time.Minute), now.Add(12 * time.Minute)} {
		// Three addresses of one /64, each with a purchaser of its own: only the address cap applies.
		r := env.Do(t, "POST", "/internal/holds", cappedHold(fmt.Sprintf("a-%d", i), 11, fmt.Sprintf("buyer%d@example.com", i),
			fmt.Sprintf("2001:db8:7:1::%x", i+1), exp), tok)
		if r.Status != 201 {
			t.Fatalf("hold %d: %d %s", i, r.Status, r.Raw)
		}
	}
	over := env.Do(t, "POST", "/internal/holds", cappedHold("a-over", 1, "late@example.com", "2001:db8:7:1:ffff::9", now.Add(10*time.Minute)), tok)
	wantLimited(t, over, first, now, "33 places of this event are already held from this address", "at most 33 at once")
	var orders int
	_ = env.Pool.QueryRow(t.Context(), `SELECT count(*) FROM orders WHERE hold_id = 'a-over'`).Scan(&orders)
	if c, h := places(t, env, "cat_rx"); orders != 0 || c != 0 || h != 33 {
		t.Fatalf("a refused hold left %d orders, places %d/%d", orders, c, h)
	}
	// The same hold id again is its order, never a refusal.
	if again := env.Do(t, "POST", "/internal/holds", cappedHold("a-0", 11, "buyer0@example.com", "2001:db8:7:1::1", first), tok); again.Status != 200 {
		t.Fatalf("the same hold id again: %d %s", again.Status, again.Raw)
	}
	// Another network is not held back.
	if r := env.Do(t, "POST", "/internal/holds", cappedHold("b-0", 11, "other@example.com", "198.51.100.20", first), tok); r.Status != 201 {
		t.Fatalf("a hold from another address: %d %s", r.Status, r.Raw)
	}
	// Once the earliest hold lapsed (before any sweep released it), its places no longer count.
	env.Clock.Advance(first.Sub(now) + time.Second)
	if r := env.Do(t, "POST", "/internal/holds", cappedHold("a-after", 11, "late@example.com", "2001:db8:7:1::2", first.Add(time.Hour)), tok); r.Status != 201 {
		t.Fatalf("a hold after the earliest lapsed: %d %s", r.Status, r.Raw)
	}
}

// TestANewHoldReleasesTheEmailsOldestHolds: one purchaser e-mail, in any case, holds at most
// 22 unpaid places of an event at once (two full purchases), from any address; a further hold
// for it takes precedence over the oldest, which is released to make room. Another event is
// another count, and a paid order no longer counts.
func TestANewHoldReleasesTheEmailsOldestHolds(t *testing.T) {
	env := unlimited(t)
	tok := env.Browser(t, orgA)
	exp := env.Clock.Now().Add(10 * time.Minute)
	var orders []string
	for i, email := range []string{"Team.Buyer@Example.com", "team.buyer@example.com", "TEAM.BUYER@example.com"} {
		r := env.Do(t, "POST", "/internal/holds", cappedHold(fmt.Sprintf("e-%d", i), 11, email, fmt.Sprintf("203.0.113.%d", i+1), exp), tok)
		if r.Status != 201 {
			t.Fatalf("hold %d: %d %s", i, r.Status, r.Raw)
		}
		orders = append(orders, r.Body["orderId"].(string))
	}
	if s0, s1, s2 := orderStatus(t, env, orders[0]), orderStatus(t, env, orders[1]), orderStatus(t, env, orders[2]); s0 != "CANCELLED" || s1 != "PENDING" || s2 != "PENDING" {
		t.Fatalf("orders %s %s %s; want the oldest CANCELLED, the others PENDING", s0, s1, s2)
	}
	if _, h := places(t, env, "cat_rx"); h != 22 {
		t.Fatalf("%d places held, want 22", h)
	}
	// Another event is another count.
	other := cappedHold("e-other", 11, "team.buyer@example.com", "203.0.113.9", exp)
	other["eventId"] = evtB
	if r := env.Do(t, "POST", "/internal/holds", other, env.Browser(t, orgB)); r.Status != 201 || orderStatus(t, env, orders[1]) != "PENDING" {
		t.Fatalf("a hold in another event: %d %s", r.Status, r.Raw)
	}
	// A paid order holds confirmed places, not unpaid ones: the next hold releases nothing.
	if pay(t, env, orders[1], "pi_1", 6500); orderStatus(t, env, orders[1]) != "COMPLETED" {
		t.Fatalf("paid order %s", orderStatus(t, env, orders[1]))
	}
	if r := env.Do(t, "POST", "/internal/holds", cappedHold("e-paid", 11, "team.buyer@example.com", "203.0.113.9", exp), tok); r.Status != 201 ||
		orderStatus(t, env, orders[2]) != "PENDING" {
		t.Fatalf("a hold once an order was paid: %d %s, earlier hold %s", r.Status, r.Raw, orderStatus(t, env, orders[2]))
	}
}

// TestNobodyCanLockAPurchaserEmailOut: places held under a victim's e-mail from other
// addresses, up to its cap, do not lock the victim out: the victim's own checkout holds its
// places, and the oldest of those holds is released as any release is (CANCELLED, its places
// freed, order.released published); the victim then pays.
func TestNobodyCanLockAPurchaserEmailOut(t *testing.T) {
	env := start(t, regtest.Options{Kafka: true})
	e := regtest.Event(evtA, orgA)
	e.Categories[0].Quota = intp(23) // the attacker's 22 and one more
	env.Catalog.Put(e)
	tok := env.Browser(t, orgA)
	exp := env.Clock.Now().Add(10 * time.Minute)
	var held []string
	for i := range 2 {
		r := env.Do(t, "POST", "/internal/holds", cappedHold(fmt.Sprintf("x-%d", i), 11, "victim@example.com", fmt.Sprintf("192.0.2.%d", i+1), exp), tok)
		if r.Status != 201 {
			t.Fatalf("attacker's hold %d: %d %s", i, r.Status, r.Raw)
		}
		held = append(held, r.Body["orderId"].(string))
	}
	victim := env.Do(t, "POST", "/internal/holds", cappedHold("v-1", 2, " Victim@Example.com", "198.51.100.77", exp), tok)
	if victim.Status != 201 {
		t.Fatalf("the victim's own hold: %d %s", victim.Status, victim.Raw)
	}
	var reason string
	_ = env.Pool.QueryRow(t.Context(), `SELECT release_reason FROM orders WHERE id = $1`, held[0]).Scan(&reason)
	if s0, s1 := orderStatus(t, env, held[0]), orderStatus(t, env, held[1]); s0 != "CANCELLED" || reason != "CANCELLED" || s1 != "PENDING" {
		t.Fatalf("attacker's holds %s (%s) and %s; want the oldest CANCELLED, the other PENDING", s0, reason, s1)
	}
	if c, h := places(t, env, "cat_rx"); c != 0 || h != 13 {
		t.Fatalf("places %d/%d, want 13 held", c, h)
	}
	m := consume(t, env, domain.OrdersTopic, func(m broker.Message) bool {
		return m.Key == held[0] && m.Headers[broker.HeaderType] == domain.EventOrderReleased
	})
	var data map[string]any
	if err := json.Unmarshal(m.Value, &data); err != nil || data["reason"] != "CANCELLED" {
		t.Fatalf("released event %s", m.Value)
	}
	v := victim.Body["orderId"].(string)
	if pay(t, env, v, "pi_v", 13000); orderStatus(t, env, v) != "COMPLETED" {
		t.Fatalf("the victim paid: order %s", orderStatus(t, env, v))
	}
}

// TestHoldRefusalWaitsUntilEnoughPlacesLapse: an address's refusal says to retry when enough of
// its holds will have lapsed for the new one to fit, not when the first lapses: here the
// second, as the first frees one place of the eleven needed.
func TestHoldRefusalWaitsUntilEnoughPlacesLapse(t *testing.T) {
	env := unlimited(t)
	tok := env.Browser(t, orgA)
	now := env.Clock.Now()
	for i, h := range []struct {
		places int
		lapse  time.Duration
	}{{1, 5 * time.Minute}, {11, 8 * time.Minute}, {11, 9 * time.Minute}, {10, 12 * time.Minute}} {
		r := env.Do(t, "POST", "/internal/holds", cappedHold(fmt.Sprintf("w-%d", i), h.places, fmt.Sprintf("w%d@example.com", i), "192.0.2.80", now.Add(h.lapse)), tok)
		if r.Status != 201 {
			t.Fatalf("hold %d: %d %s", i, r.Status, r.Raw)
		}
	}
	over := env.Do(t, "POST", "/internal/holds", cappedHold("w-over", 11, "w9@example.com", "192.0.2.80", now.Add(10*time.Minute)), tok)
	wantLimited(t, over, now.Add(8*time.Minute), now, "33 places of this event are already held from this address")
}

// TestConcurrentHoldsStayUnderTheCap: 20 holds of 5 places from one address at once, each for
// a purchaser of its own, never take more than the address's 33 places: exactly 6 are held.
func TestConcurrentHoldsStayUnderTheCap(t *testing.T) {
	env := unlimited(t)
	tok := env.Browser(t, orgA)
	exp := env.Clock.Now().Add(10 * time.Minute)
	statuses := make([]int, 20)
	var wg sync.WaitGroup
	for i := range statuses {
		wg.Go(func() {
			r := env.Do(t, "POST", "/internal/holds", cappedHold(fmt.Sprintf("c-%d", i), 5, fmt.Sprintf("c%d@example.com", i), "192.0.2.44", exp), tok)
			statuses[i] = r.Status
		})
	}
	wg.Wait()
	held, refused := 0, 0
	for _, s := range statuses {
		switch s {
		case 201:
			held++
		case 429:
			refused++
		}
	}
	if c, h := places(t, env, "cat_rx"); held != 6 || refused != 14 || c != 0 || h != 30 {
		t.Fatalf("%d holds, %d refused, places %d/%d; want 6 holds of 30 places and 14 refused (%v)", held, refused, c, h, statuses)
	}
}

// TestConcurrentHoldsOfOneEmailStayUnderItsCap: 12 holds of 5 places for one e-mail at once,
// from addresses of their own, all hold their places, each releasing the oldest as it must:
// the e-mail ends with exactly four unpaid holds (20 places), the ledger agrees and the eight
// others are CANCELLED.
func TestConcurrentHoldsOfOneEmailStayUnderItsCap(t *testing.T) {
	env := start(t, regtest.Options{MaxConns: 16})
	e := regtest.Event(evtA, orgA)
	e.Categories[0].Quota = nil
	env.Catalog.Put(e)
	tok := env.Browser(t, orgA)
	exp := env.Clock.Now().Add(10 * time.Minute)
	statuses := make([]int, 12)
	var wg sync.WaitGroup
	for i := range statuses {
		wg.Go(func() {
			r := env.Do(t, "POST", "/internal/holds", cappedHold(fmt.Sprintf("m-%d", i), 5, "crowd@example.com", fmt.Sprintf("198.51.100.%d", i+1), exp), tok)
			statuses[i] = r.Status
		})
	}
	wg.Wait()
	var pending, cancelled int
	if err := env.Pool.QueryRow(t.Context(), `SELECT count(*) FILTER (WHERE status = 'PENDING'), count(*) FILTER (WHERE status = 'CANCELLED')
		FROM orders WHERE purchaser_email = 'crowd@example.com'`).Scan(&pending, &cancelled); err != nil {
		t.Fatal(err)
	}
	if c, h := places(t, env, "cat_rx"); slices.ContainsFunc(statuses, func(s int) bool { return s != 201 }) || pending != 4 || cancelled != 8 || c != 0 || h != 20 {
		t.Fatalf("statuses %v, %d pending and %d cancelled orders, places %d/%d; want all 201, 4 pending, 8 cancelled, 20 held",
			statuses, pending, cancelled, c, h)
	}
}

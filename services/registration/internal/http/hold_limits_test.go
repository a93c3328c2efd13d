package http_test

import (
	"fmt"
	"strconv"
	"sync"
	"testing"
	"time"

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
// firstLapse (now being the service clock's time of the request, within a second).
func wantLimited(t *testing.T, r regtest.Response, firstLapse, now time.Time, parts ...string) {
	t.Helper()
	wantError(t, r, 429, parts...)
	got, err := strconv.Atoi(r.Header.Get("Retry-After"))
	want := int(firstLapse.Sub(now).Seconds())
	if err != nil || got < want-1 || got > want+1 {
		t.Fatalf("Retry-After %q, want about %d s (until the earliest hold lapses)", r.Header.Get("Retry-After"), want)
	}
}

// TestUnpaidPlacesAreCappedPerAddress: one client network holds at most 33 unpaid places of
// an event at once (three full purchases); the next hold from it is refused with 429 until the
// earliest of its holds lapses, while a buyer from another network still holds places. Two
// IPv6 addresses of one /64 are one network.
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

// TestUnpaidPlacesAreCappedPerEmail: one purchaser e-mail, in any case, holds at most 22 unpaid
// places of an event at once (two full purchases), from any address; a paid order no longer
// counts.
func TestUnpaidPlacesAreCappedPerEmail(t *testing.T) {
	env := unlimited(t)
	tok := env.Browser(t, orgA)
	now := env.Clock.Now()
	exp := now.Add(10 * time.Minute)
	var orders []string
	for i, email := range []string{"Team.Buyer@Example.com", "team.buyer@example.com"} {
		r := env.Do(t, "POST", "/internal/holds", cappedHold(fmt.Sprintf("e-%d", i), 11, email, fmt.Sprintf("203.0.113.%d", i+1), exp), tok)
		if r.Status != 201 {
			t.Fatalf("hold %d: %d %s", i, r.Status, r.Raw)
		}
		orders = append(orders, r.Body["orderId"].(string))
	}
	over := env.Do(t, "POST", "/internal/holds", cappedHold("e-over", 1, "TEAM.BUYER@example.com", "203.0.113.9", exp), tok)
	wantLimited(t, over, exp, now, "22 places of this event are already held for this purchaser e-mail", "at most 22 at once")
	// Another event is another count.
	other := cappedHold("e-other", 11, "team.buyer@example.com", "203.0.113.9", exp)
	other["eventId"] = evtB
	if r := env.Do(t, "POST", "/internal/holds", other, env.Browser(t, orgB)); r.Status != 201 {
		t.Fatalf("a hold in another event: %d %s", r.Status, r.Raw)
	}
	// A paid order holds confirmed places, not unpaid ones.
	if c := env.Do(t, "POST", "/internal/holds/"+orders[0]+"/confirm", map[string]any{"paymentRef": "pi_1", "amountPaid": 6500}, tok); c.Status != 200 {
		t.Fatalf("confirm: %d %s", c.Status, c.Raw)
	}
	if r := env.Do(t, "POST", "/internal/holds", cappedHold("e-paid", 11, "team.buyer@example.com", "203.0.113.9", exp), tok); r.Status != 201 {
		t.Fatalf("a hold once the first order was paid: %d %s", r.Status, r.Raw)
	}
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

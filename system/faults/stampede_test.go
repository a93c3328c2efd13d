package faults

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/podiumhq/podium/libs/testkit"
)

// The quota stampede: racers well above the places left.
const (
	stampedeQuota  = 20
	stampedeRacers = 80
)

// TestQuotaStampede: 80 buyers race for the 20 places of a category, each opening a session
// (retried as a client does) and paying it when it got one, while one of the two registration
// instances is killed once the first places are held, with a steady load on another event
// beside them. Exactly the quota is sold, every session answered is paid and confirmed once,
// every other racer is refused with 409, and nothing paid is lost.
func TestQuotaStampede(t *testing.T) {
	beside := newShop(t, 0)
	l := startLoad(t, beside)
	s := newShop(t, stampedeQuota)
	var tl tally
	var g gateways
	var opened, soldOut atomic.Int64
	var mu sync.Mutex
	var paid []*purchase
	start := make(chan struct{})
	var wg sync.WaitGroup
	for range stampedeRacers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
			defer cancel()
			p := s.newPurchase()
			<-start
			a := s.open(ctx, &g, &tl, p)
			switch a.status {
			case 201:
				opened.Add(1)
				if s.pay(ctx, t, &g, &tl, p) {
					mu.Lock()
					paid = append(paid, p)
					mu.Unlock()
				}
			case 409:
				soldOut.Add(1)
			default:
				tl.fail("session", a)
			}
		}()
	}
	close(start)
	victim := sys.Instances("registration")[1]
	testkit.Eventually(t, time.Minute, func() string { return unless(opened.Load() >= 3, "only %d sessions opened", opened.Load()) })
	if err := sys.KillInstance(victim); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	if err := sys.StartService(t.Context(), victim); err != nil {
		t.Fatal(err)
	}
	mergeTally(&tl, &l.tally)
	c := s.settle(t, paid, 2*time.Minute)
	besides := beside.settle(t, l.stopLoad(), 2*time.Minute)
	c.sent, c.confirmed, c.lost, c.doubled = c.sent+besides.sent, c.confirmed+besides.confirmed, c.lost+besides.lost, c.doubled+besides.doubled
	report(t, "quota-stampede", c, &tl)
	sold, err := s.outcome(paid)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("FAULTS %-20s quota=%d racers=%d sessions=%d sold-out=%d sold=%d (killed %s)",
		"quota-stampede", stampedeQuota, stampedeRacers, opened.Load(), soldOut.Load(), sold.confirmed, victim)
	if sold.confirmed != stampedeQuota || int(opened.Load()) != stampedeQuota {
		t.Errorf("%d places sold of %d sessions opened, want the quota of %d; %d places still held by no session "+
			"(a hold the killed instance made whose answer never reached checkout)", sold.confirmed, opened.Load(), stampedeQuota, heldPlaces(t, s))
	}
}

// heldPlaces reads the places registration's quota ledger holds for the shop's event.
func heldPlaces(t *testing.T, s *shop) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, sys.DatabaseURL("registration"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var n int
	if err := conn.QueryRow(ctx, `SELECT coalesce(sum(held), 0) FROM places WHERE event_id = $1`, s.event.ID).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

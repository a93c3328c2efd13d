package faults

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Shape of the steady load: a few buyers, each pausing between purchases, so that the load is
// modest on a 2-core machine running the whole system twice over.
const (
	loadWorkers = 4
	loadPause   = 150 * time.Millisecond
)

// load is the steady load of a scenario: buyers, each in turn opening a checkout session,
// paying it (the webhook Stripe would send) and reading the organizer's registrations, all
// through the gateways, retrying as a client does. It remembers every purchase it paid.
type load struct {
	shop  *shop
	g     gateways
	tally tally
	stop  atomic.Bool
	wg    sync.WaitGroup
	mu    sync.Mutex
	paid  []*purchase
}

// startLoad starts the buyers; stopLoad ends it.
func startLoad(t *testing.T, s *shop) *load { return startBuyers(t, s, loadWorkers) }

// startBuyers starts a load of so many buyers.
func startBuyers(t *testing.T, s *shop, buyers int) *load {
	l := &load{shop: s}
	for range buyers {
		l.wg.Add(1)
		go l.work(t)
	}
	return l
}

// stopLoad lets each buyer finish the purchase it is in (which may wait out an outage) and
// returns the purchases paid.
func (l *load) stopLoad() []*purchase {
	l.stop.Store(true)
	l.wg.Wait()
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.paid
}

// sent is how many purchases have been paid so far.
func (l *load) sent() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.paid)
}

func (l *load) work(t *testing.T) {
	defer l.wg.Done()
	for !l.stop.Load() {
		ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
		p := l.shop.newPurchase()
		if session := l.shop.open(ctx, &l.g, &l.tally, p); session.status == 201 {
			if l.shop.pay(ctx, t, &l.g, &l.tally, p) {
				l.mu.Lock()
				l.paid = append(l.paid, p)
				l.mu.Unlock()
			}
		} else if ctx.Err() == nil {
			l.tally.fail("session", session)
		}
		if a := l.g.retrying(ctx, &l.tally, l.shop.searchRequest(), answer.retryable); a.status != 201 && ctx.Err() == nil {
			l.tally.fail("organizer search", a)
		}
		cancel()
		<-time.After(loadPause)
	}
}

// open creates p's checkout session, retrying as a client does, and records its order.
func (s *shop) open(ctx context.Context, g *gateways, tl *tally, p *purchase) answer {
	a := g.retrying(ctx, tl, s.sessionRequest(p), answer.retryable)
	var ans struct {
		SessionID string `json:"sessionId"`
		OrderID   string `json:"orderId"`
	}
	if a.status == 201 {
		if err := decode(a, &ans); err != nil {
			return answer{body: a.body, err: fmt.Errorf("session answer: %w", err)}
		}
		if ans.OrderID == "" {
			return answer{body: a.body, err: errors.New("a session answer without an order")}
		}
		p.orderID, p.sessionID = ans.OrderID, ans.SessionID
	}
	return a
}

// pay delivers the paid webhook of p's session as Stripe does, again until it is acknowledged,
// and reports whether it was.
func (s *shop) pay(ctx context.Context, t *testing.T, g *gateways, tl *tally, p *purchase) bool {
	_, payload := paidEvent(t, p)
	if payload == nil {
		return false
	}
	a := g.retrying(ctx, tl, webhookRequest(payload, sys.WebhookSecret, time.Now()), redeliverable)
	if a.status != 200 {
		if ctx.Err() == nil {
			tl.fail("payment webhook", a)
		}
		return false
	}
	return true
}

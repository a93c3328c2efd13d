package faults

import (
	"context"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// The webhook storm: every paid session's event delivered 1 to 5 times, shuffled
// with forged, tampered and stale deliveries, 5 % of first deliveries answered 500 by a fault.
const (
	stormPaid    = 100
	stormUnpaid  = 20
	stormFailPct = 5
)

// delivery is one webhook delivery of the storm: its payload, how it is signed, and whether
// checkout must acknowledge it (genuine) or refuse it (forged, tampered, stale: 400).
type delivery struct {
	payload  []byte
	secret   string
	age      time.Duration
	sigOf    []byte
	genuine  bool
	forgedBy string
}

// TestWebhookStorm delivers the payments of 100 sessions 1 to 5 times each, shuffled with
// forged deliveries (another secret), tampered ones (a body that is not the signed one) and
// stale ones (signed 301 s ago), for those sessions and for 20 unpaid ones, through a gateway
// whose checkout sits behind a fault proxy failing 5 % of first deliveries with a 500 (half
// after checkout applied them). Stripe delivers a 5xx again. Every paid session is confirmed
// exactly once, no unpaid one at all, and no forged delivery is accepted.
func TestWebhookStorm(t *testing.T) {
	s := newShop(t, 0)
	l := startLoad(t, s)
	var tl tally
	var g gateways
	sessions := openSessions(t, s, &g, &tl, stormPaid+stormUnpaid)
	paid, unpaid := sessions[:stormPaid], sessions[stormPaid:]
	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, 11))
	deliveries, failing := stormDeliveries(t, rng, paid, unpaid)
	proxy := startStormProxy(t, failing)
	storm, stop, err := sys.AddGateway(t.Context(), "CHECKOUT_URL="+proxy.srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer stop() //nolint:errcheck // the stack stops it too
	accepted, refused, forgedAccepted := deliverAll(t, &gateways{urls: []string{storm}}, &tl, deliveries)
	loadPaid := l.stopLoad()
	c := s.settle(t, append(append([]*purchase{}, paid...), loadPaid...), 2*time.Minute)
	mergeTally(&tl, &l.tally)
	report(t, "webhook-storm", c, &tl)
	t.Logf("FAULTS %-20s seed=%d deliveries=%d acknowledged=%d refused=%d forged-accepted=%d first-deliveries-failed=%d (before checkout %d, after %d)",
		"webhook-storm", seed, len(deliveries), accepted, refused, forgedAccepted, proxy.before.Load()+proxy.afterApply.Load(), proxy.before.Load(), proxy.afterApply.Load())
	if forgedAccepted != 0 {
		t.Errorf("%d forged, tampered or stale deliveries were accepted", forgedAccepted)
	}
	if n := proxy.before.Load() + proxy.afterApply.Load(); n != int64(len(failing)) {
		t.Errorf("the fault failed %d first deliveries, want %d", n, len(failing))
	}
	if u, err := s.outcome(unpaid); err != nil || u.confirmed != 0 {
		t.Errorf("%d sessions confirmed by forged deliveries alone (%v)", u.confirmed, err)
	}
}

// stormDeliveries builds the shuffled deliveries and the ids of the events whose first
// delivery the fault fails (5 % of the paid sessions' events).
func stormDeliveries(t *testing.T, rng *rand.Rand, paid, unpaid []*purchase) ([]delivery, []string) {
	var out []delivery
	var ids []string
	forge := func(p *purchase) {
		_, genuine := paidEvent(t, p)
		_, other := paidEvent(t, p)
		tampered := []byte(strings.Replace(string(other), `"amount_total":`, `"amount_total":1`, 1))
		out = append(out,
			delivery{payload: genuine, secret: "whsec_" + randomHex(24), forgedBy: "another secret"},
			delivery{payload: tampered, sigOf: other, secret: sys.WebhookSecret, forgedBy: "tampered body"},
			delivery{payload: genuine, secret: sys.WebhookSecret, age: 301 * time.Second, forgedBy: "stale signature"})
	}
	for _, p := range paid {
		id, payload := paidEvent(t, p)
		ids = append(ids, id)
		for range 1 + rng.IntN(5) {
			out = append(out, delivery{payload: payload, secret: sys.WebhookSecret, genuine: true})
		}
		if rng.IntN(5) == 0 {
			forge(p)
		}
	}
	for _, p := range unpaid {
		forge(p)
	}
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	rng.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
	return out, ids[:(len(ids)*stormFailPct+99)/100]
}

// deliverAll sends the deliveries in order from 8 deliverers, each genuine one again after a
// 5xx or no answer as Stripe does, and counts those acknowledged, those refused and the forged
// ones acknowledged.
func deliverAll(t *testing.T, g *gateways, tl *tally, ds []delivery) (accepted, refused, forgedAccepted int64) {
	var acc, ref, forged atomic.Int64
	inParallel(8, len(ds), func(i int) {
		d := ds[i]
		ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
		defer cancel()
		r := webhookRequest(d.payload, d.secret, time.Now().Add(-d.age))
		if d.sigOf != nil {
			r.headers["Stripe-Signature"] = webhookRequest(d.sigOf, d.secret, time.Now()).headers["Stripe-Signature"]
		}
		switch a := g.retrying(ctx, tl, r, redeliverable); {
		case a.status == 200 && d.genuine:
			acc.Add(1)
		case a.status == 200:
			forged.Add(1)
		case a.status == 400 && !d.genuine:
			ref.Add(1)
		default:
			tl.fail("webhook ("+d.forgedBy+")", a)
		}
	})
	return acc.Load(), ref.Load(), forged.Load()
}

// mergeTally adds what the load's clients saw to t.
func mergeTally(t, from *tally) {
	t.fiveXX.Add(from.fiveXX.Load())
	t.retries.Add(from.retries.Load())
	t.failed.Add(from.failed.Load())
	from.mu.Lock()
	defer from.mu.Unlock()
	t.mu.Lock()
	defer t.mu.Unlock()
	t.failures = append(t.failures, from.failures...)
}

package api_test

import (
	"fmt"
	"strconv"
	"sync"
	"testing"

	"github.com/podiumhq/podium/services/registration/internal/app"
	"github.com/podiumhq/podium/services/registration/internal/domain"
	"github.com/podiumhq/podium/services/registration/internal/regtest"
)

// race is one round of TestWaitlistOffersAndBuyersRaceForFreedPlaces.
type race struct {
	t       *testing.T
	env     *regtest.Env
	browser string
	mu      sync.Mutex
	sold    map[string]bool // hold ids that got a place
	taken   sync.Map        // offer secrets already used
	holds   int
}

func (r *race) hold(holdID string, body map[string]any) bool {
	res := r.env.Do(r.t, "POST", "/internal/holds", body, r.browser)
	if res.Status != 201 && res.Status != 409 {
		r.t.Errorf("hold %s: %d %s", holdID, res.Status, res.Raw)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.holds++
	if res.Status == 201 {
		r.sold[holdID] = true
	}
	return res.Status == 201
}

// offers lapses offers that ran out, offers freed places and buys each new offer made to an
// even-numbered entry (the odd ones let theirs lapse), until stop is closed.
func (r *race) offers(stop <-chan struct{}, all *sync.WaitGroup) {
	for pass := 0; ; pass++ {
		if _, err := r.env.Service.LapseOffers(r.t.Context()); err != nil {
			r.t.Errorf("lapse: %v", err)
		}
		if _, err := r.env.Service.OfferFreed(r.t.Context()); err != nil {
			r.t.Errorf("offer round: %v", err)
			return
		}
		for _, o := range mailedOffers(r.t, r.env) {
			if _, dup := r.taken.LoadOrStore(o.secret, true); dup || o.index%2 == 1 {
				continue
			}
			all.Add(1)
			go func() {
				defer all.Done()
				name := fmt.Sprintf("Wait%02d", o.index)
				b := holdBody("wl-"+name, r.env.Clock.Now().Add(domain.DefaultOfferTTL), holdReg(name))
				b["waitlistOffer"], b["purchaserEmail"] = o.secret, o.email
				r.hold("wl-"+name, b)
			}()
		}
		select {
		case <-stop:
			if pass > 0 {
				return
			}
		default:
		}
	}
}

// TestWaitlistOffersAndBuyersRaceForFreedPlaces frees 30 places of a sold-out category with
// 50 people on its waitlist while 200 buyers try to buy, and offer rounds (two workers at
// once) offer the freed places, each offer bought at once by every other person in line; the
// others' offers lapse (the test's clock moves a day between rounds) and pass down the line.
// Rounds of 200 buyers go on until the category is sold out again. Exactly 30 places are
// sold: the ledger, the paid registrations and the granted holds agree, no offer is left
// holding a place, the line was served first and buyers got only what it left.
func TestWaitlistOffersAndBuyersRaceForFreedPlaces(t *testing.T) {
	const quota, waiting, buyers = 30, 50, 200
	env := start(t, regtest.Options{MaxConns: 40, App: &app.Options{OfferTTL: domain.DefaultOfferTTL}})
	e := regtest.Event(evtA, orgA)
	e.Categories[0].Quota = intp(quota)
	env.Catalog.Put(e)
	secret := env.Secret(t, orgA)
	tickets := make([]string, quota)
	for i := range quota {
		tickets[i] = ticketOf(create(t, env, createBody(fmt.Sprintf("Early%02d", i))), 0)
	}
	for i := range waiting {
		if _, err := join(t, env, fmt.Sprintf("wait%02d@example.com", i)); err != nil {
			t.Fatalf("join %d: %v", i, err)
		}
	}
	r := &race{t: t, env: env, browser: env.Browser(t, orgA), sold: map[string]bool{}}
	for round := 0; round < 8 && len(r.sold) < quota; round++ {
		start, stop := make(chan struct{}), make(chan struct{})
		var buyersDone, all sync.WaitGroup
		if round == 0 { // the places are freed while buyers and offers race
			for _, tk := range tickets {
				buyersDone.Add(1)
				go func() {
					defer buyersDone.Done()
					<-start
					if res := env.Do(t, "DELETE", "/external/v1/organizer/registrations/"+tk, nil, secret); res.Status != 200 {
						t.Errorf("delete: %d %s", res.Status, res.Raw)
					}
				}()
			}
		}
		for i := range buyers {
			buyersDone.Add(1)
			go func() {
				defer buyersDone.Done()
				<-start
				name := fmt.Sprintf("Buyer%d_%03d", round, i)
				b := holdBody("race-"+name, env.Clock.Now().Add(domain.DefaultOfferTTL), holdReg(name))
				b["purchaserEmail"] = name + "@example.com"
				r.hold("race-"+name, b)
			}()
		}
		for range 2 {
			all.Add(1)
			go func() { defer all.Done(); <-start; r.offers(stop, &all) }()
		}
		close(start)
		buyersDone.Wait()
		close(stop)
		all.Wait()
		env.Clock.Advance(domain.DefaultOfferTTL + 1)
	}

	for _, id := range pendingOrders(t, env) {
		pay(t, env, id, "pi_"+id, 6500)
	}
	confirmed, held := places(t, env, "cat_rx")
	var paid, offered, accepted, lapsed, inLine int
	_ = env.Pool.QueryRow(t.Context(), `SELECT count(*) FROM registrations r JOIN orders o ON o.id = r.order_id
		WHERE r.category_id = 'cat_rx' AND r.cancelled_at IS NULL AND o.status = 'COMPLETED'`).Scan(&paid)
	_ = env.Pool.QueryRow(t.Context(), `SELECT count(*) FILTER (WHERE status = 'OFFERED'), count(*) FILTER (WHERE status = 'ACCEPTED'),
		count(*) FILTER (WHERE status = 'LAPSED'), count(*) FILTER (WHERE status = 'WAITING') FROM waitlist_entries`).Scan(&offered, &accepted, &lapsed, &inLine)
	if confirmed != quota || held != 0 || paid != quota || len(r.sold) != quota || offered != 0 {
		t.Fatalf("ledger %d confirmed + %d held, %d paid registrations, %d holds granted, %d offers left; want exactly %d sold",
			confirmed, held, paid, len(r.sold), offered, quota)
	}
	if accepted != waiting/2 || lapsed != waiting/2 || inLine != 0 {
		t.Fatalf("line: %d bought, %d lapsed, %d still waiting; want every other one of %d to buy, the line served before buyers", accepted, lapsed, inLine, waiting)
	}
	t.Logf("%d holds tried: %d places went to buyers, %d to waitlist offers", r.holds, quota-accepted, accepted)
}

func pendingOrders(t *testing.T, env *regtest.Env) []string {
	rows, err := env.Pool.Query(t.Context(), `SELECT id FROM orders WHERE status = 'PENDING'`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		_ = rows.Scan(&id)
		out = append(out, id)
	}
	return out
}

// mailedOffer is an offer mailed to the waiting person with index (wait<index>@example.com).
type mailedOffer struct {
	secret, email string
	index         int
}

// mailedOffers returns every offer mailed so far.
func mailedOffers(t *testing.T, env *regtest.Env) []mailedOffer {
	rows, err := env.Pool.Query(t.Context(), `SELECT recipient, body FROM mail_outbox WHERE subject LIKE 'A place in %'`)
	if err != nil {
		t.Errorf("mail: %v", err)
		return nil
	}
	defer rows.Close()
	var out []mailedOffer
	for rows.Next() {
		var to, body string
		_ = rows.Scan(&to, &body)
		if m := offerSecret.FindStringSubmatch(body); m != nil {
			i, _ := strconv.Atoi(to[4:6])
			out = append(out, mailedOffer{secret: m[1], email: to, index: i})
		}
	}
	return out
}

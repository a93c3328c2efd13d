package api_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/registration/internal/regtest"
)

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
				pay(t, env, order, "pi_"+name, 6500)
			case 3:
				env.Do(t, "POST", "/internal/holds/"+order+"/release", map[string]any{"reason": "CANCELLED"}, browser)
			}
		}()
	}
	wg.Wait()
	var confirmed, held, wantConfirmed, wantHeld int
	_ = env.Pool.QueryRow(t.Context(), `SELECT confirmed, held FROM places WHERE category_id = 'cat_rx'`).Scan(&confirmed, &held)
	_ = env.Pool.QueryRow(t.Context(), `SELECT
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
			var r testkit.Response
			if i%2 == 0 {
				r = env.Do(t, "POST", "/external/v1/organizer/registrations", createBody(name), secret)
			} else {
				r = env.Do(t, "POST", "/internal/holds", holdBody("race-"+name, time.Now().Add(time.Hour), holdReg(name)), browser)
				if r.Status == 201 {
					pay(t, env, r.Body["orderId"].(string), "pi_"+name, 6500)
				}
			}
			if r.Status == 409 && !strings.Contains(string(r.Raw), "category cat_rx is sold out") {
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

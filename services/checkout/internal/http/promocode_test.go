package http_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/podiumhq/podium/services/checkout/internal/checkouttest"
)

// TestLapsedHoldGivesItsPromocodeUseBack: a one-use code is taken by a checkout awaiting
// payment while its 10-minute hold lives; once the hold lapsed the next buyer gets the code,
// though no release event was processed (this service runs no consumer here).
func TestLapsedHoldGivesItsPromocodeUseBack(t *testing.T) {
	env := start(t, checkouttest.Options{})
	withCode := func(team string) map[string]any {
		b := checkouttest.Purchase()
		b["promocode"], b["teamName"] = "ONCE", team
		return b
	}
	if r := session(t, env, withCode("Team First")); r.Status != http.StatusCreated {
		t.Fatalf("first session: %d %s", r.Status, r.Raw)
	}
	if r := session(t, env, withCode("Team Second")); r.Status != http.StatusUnprocessableEntity {
		t.Fatalf("a second use while the first hold lives: %d %s", r.Status, r.Raw)
	}
	env.Clock.Advance(10*time.Minute + time.Second)
	s := summaryBody()
	s["promocode"] = "ONCE"
	if r := env.Browser(t, "summary", s, checkouttest.KeyID); r.Status != http.StatusCreated {
		t.Fatalf("summary once the hold lapsed: %d %s", r.Status, r.Raw)
	}
	if r := session(t, env, withCode("Team Third")); r.Status != http.StatusCreated {
		t.Fatalf("session once the hold lapsed: %d %s", r.Status, r.Raw)
	}
	if n := count(t, env, `SELECT count(*) FROM inbox`); n != 0 {
		t.Fatalf("%d messages processed; the use must come back without any", n)
	}
}

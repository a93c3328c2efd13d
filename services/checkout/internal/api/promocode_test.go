package api_test

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/testkit"
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

// withPromocode is the summary body with code.
func withPromocode(code string) map[string]any {
	b := summaryBody()
	b["promocode"] = code
	return b
}

// wantBlocked checks a 429 refusal of a promocode in the standard format, with Retry-After
// seconds within a second of want.
func wantBlocked(t *testing.T, r testkit.Response, operation string, want time.Duration) {
	t.Helper()
	if r.Status != http.StatusTooManyRequests || r.Body["statusCode"] != 429.0 || r.Body["error"] != "Too Many Requests" ||
		!strings.Contains(fmt.Sprint(r.Body["message"]), "too many promocodes that are not valid were tried") {
		t.Fatalf("%d %s, want 429 for too many promocodes", r.Status, r.Raw)
	}
	conforms(t, operation, r)
	s, err := strconv.Atoi(r.Header.Get("Retry-After"))
	if err != nil || time.Duration(s)*time.Second < want-time.Second || time.Duration(s)*time.Second > want+time.Second {
		t.Fatalf("Retry-After %q, want %s", r.Header.Get("Retry-After"), want)
	}
}

// TestPromocodeGuessingIsBlockedPerAddress: every unknown or unusable code gets the same
// answer; an address may fail five times at once, and its sixth failure blocks it for a
// minute: any code it sends (even a valid one, in a summary or a session) is refused with 429
// before it is looked at, in every instance, while a buyer from another address applies a
// valid code. A purchase without a code still goes through, and a block doubles.
func TestPromocodeGuessingIsBlockedPerAddress(t *testing.T) {
	env := start(t, checkouttest.Options{})
	const guesser, buyer = "198.51.100.7", "2001:db8:aa::1"
	for i, code := range []string{"NOPE", "OVER", "LATER", "GUESS1", "GUESS2", "GUESS3"} {
		r := env.BrowserFrom(t, "summary", withPromocode(code), checkouttest.KeyID, guesser)
		wantError(t, r, http.StatusUnprocessableEntity, []any{fmt.Sprintf("promocode %q is not valid for this purchase", code)})
		if i == 2 {
			env.Restart(t) // the count is shared by every instance
		}
	}
	wantBlocked(t, env.BrowserFrom(t, "summary", withPromocode("EARLY10"), checkouttest.KeyID, guesser), "browserCheckoutSummary", time.Minute)
	b := checkouttest.Purchase()
	b["promocode"] = "EARLY10"
	wantBlocked(t, env.BrowserFrom(t, "session", b, checkouttest.KeyID, guesser), "browserCheckoutSession", time.Minute)
	if r := env.BrowserFrom(t, "summary", withPromocode("EARLY10"), checkouttest.KeyID, buyer); r.Status != http.StatusCreated {
		t.Fatalf("a buyer from another address: %d %s", r.Status, r.Raw)
	}
	if r := env.BrowserFrom(t, "session", checkouttest.Purchase(), checkouttest.KeyID, guesser); r.Status != http.StatusCreated {
		t.Fatalf("a purchase without a code from the blocked address: %d %s", r.Status, r.Raw)
	}
	env.Clock.Advance(time.Minute + time.Second)
	if r := env.BrowserFrom(t, "summary", withPromocode("EARLY10"), checkouttest.KeyID, guesser); r.Status != http.StatusCreated {
		t.Fatalf("a valid code once the block ended: %d %s", r.Status, r.Raw)
	}
	wantError(t, env.BrowserFrom(t, "summary", withPromocode("GUESS4"), checkouttest.KeyID, guesser), http.StatusUnprocessableEntity, nil)
	wantBlocked(t, env.BrowserFrom(t, "summary", withPromocode("EARLY10"), checkouttest.KeyID, guesser), "browserCheckoutSummary", 2*time.Minute)
}

// TestPromocodeGuessingIsBlockedPerKey: failures from many addresses add up on their
// publishable key: past its hundred, every code sent with the key is refused for a minute,
// from any address, while another key of the organizer is not held back.
func TestPromocodeGuessingIsBlockedPerKey(t *testing.T) {
	env := start(t, checkouttest.Options{})
	const key = "key_pub_guessed"
	for i := range 101 {
		r := env.BrowserFrom(t, "summary", withPromocode(fmt.Sprintf("GUESS%d", i)), key, fmt.Sprintf("203.0.113.%d", i+1))
		if r.Status != http.StatusUnprocessableEntity {
			t.Fatalf("guess %d: %d %s", i, r.Status, r.Raw)
		}
	}
	wantBlocked(t, env.BrowserFrom(t, "summary", withPromocode("EARLY10"), key, "192.0.2.200"), "browserCheckoutSummary", time.Minute)
	if r := env.BrowserFrom(t, "summary", withPromocode("EARLY10"), checkouttest.KeyID, "192.0.2.200"); r.Status != http.StatusCreated {
		t.Fatalf("another key: %d %s", r.Status, r.Raw)
	}
}

// TestABurstOfGuessesIsCheckedOneAfterAnother: 30 unknown codes sent at once from one address
// are admitted one after the other: its five free failures and the sixth, which blocks it, are
// looked at (422), and the other 24 are refused unseen (429). A valid code sent afterwards from
// another address gives its attempt back, so a buyer's own failures stay as they were.
func TestABurstOfGuessesIsCheckedOneAfterAnother(t *testing.T) {
	env := start(t, checkouttest.Options{})
	const guesser = "198.51.100.31"
	statuses := make([]int, 30)
	var wg sync.WaitGroup
	for i := range statuses {
		wg.Go(func() {
			statuses[i] = env.BrowserFrom(t, "summary", withPromocode(fmt.Sprintf("BURST%02d", i)), checkouttest.KeyID, guesser).Status
		})
	}
	wg.Wait()
	count := map[int]int{}
	for _, s := range statuses {
		count[s]++
	}
	if count[http.StatusUnprocessableEntity] != 6 || count[http.StatusTooManyRequests] != 24 {
		t.Fatalf("statuses %v; want 6 codes looked at (422) and 24 refused (429)", count)
	}

	const buyer = "203.0.113.31"
	for i := range 4 {
		wantError(t, env.BrowserFrom(t, "summary", withPromocode(fmt.Sprintf("TYPO%d", i)), checkouttest.KeyID, buyer), http.StatusUnprocessableEntity, nil)
	}
	for range 3 {
		if r := env.BrowserFrom(t, "summary", withPromocode("EARLY10"), checkouttest.KeyID, buyer); r.Status != http.StatusCreated {
			t.Fatalf("a valid code: %d %s", r.Status, r.Raw)
		}
	}
	wantError(t, env.BrowserFrom(t, "summary", withPromocode("TYPO4"), checkouttest.KeyID, buyer), http.StatusUnprocessableEntity, nil)
	if r := env.BrowserFrom(t, "summary", withPromocode("EARLY10"), checkouttest.KeyID, buyer); r.Status != http.StatusCreated {
		t.Fatalf("a valid code after five typos and three valid codes: %d %s", r.Status, r.Raw)
	}
}

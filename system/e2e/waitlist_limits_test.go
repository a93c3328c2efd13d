package e2e

import (
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/testkit"
)

// soldOutShop is a shop whose event has n sold-out categories (quota 0) of pairs, wave1 to
// waveN, each with a waitlist to join.
func soldOutShop(t *testing.T, n int) (*shop, []string) {
	t.Helper()
	doc := shopEvent("PUBLISHED", nil)
	doc["externalId"] = "e2e-waves"
	cats := make([]any, n)
	for i := range n {
		cats[i] = map[string]any{"key": fmt.Sprintf("wave%d", i+1), "name": fmt.Sprintf("Wave %d", i+1),
			"teamSize": map[string]any{"min": 2, "max": 2}, "basePrice": pairPrice, "quota": 0}
	}
	doc["categories"] = cats
	s := &shop{tenant: newTenant(t)}
	ev, err := sys.ImportEventDoc(t.Context(), s.org, doc)
	if err != nil {
		t.Fatal(err)
	}
	s.event = ev
	ids := make([]string, n)
	for i := range n {
		ids[i] = ev.Category(fmt.Sprintf("wave%d", i+1))
	}
	return s, ids
}

// joinIn joins the waitlist of category cat with email from a new client address each time,
// so that only the per-e-mail limits can refuse it.
func (s *shop) joinIn(t *testing.T, cat, email string) response {
	t.Helper()
	s.cat = cat
	return s.join(t, s.publishable.Key, newVisitorIP(), email)
}

// TestWaitlistLimitsJoinsPerEmail puts one e-mail on an organizer's waitlists from a new
// address each time, as someone filling a victim's address would: five entries are taken, a
// join again of one answers its entry, a sixth waitlist is refused with 409
// waitlist_email_limit and, once the organizer closed one of them, the next join is refused
// with 429 and Retry-After (five joins this hour); another e-mail and the test mode still join,
// and the victim's e-mail does again once the hour has passed on the waitlist's clock.
func TestWaitlistLimitsJoinsPerEmail(t *testing.T) {
	s, cats := soldOutShop(t, 6)
	const victim = "victim.waitlist@example.com"
	var first waitlistEntry
	for i, c := range cats[:5] {
		res := s.joinIn(t, c, victim)
		if res.status != 201 {
			t.Fatalf("join %d: %d %s", i+1, res.status, res.body)
		}
		if i == 0 {
			first = decode[waitlistEntry](t, res)
		}
	}
	if again := decode[waitlistEntry](t, s.joinIn(t, cats[0], "Victim.Waitlist@example.com")); again.ID != first.ID {
		t.Fatalf("join again answered %s, want the first entry %s", again.ID, first.ID)
	}
	wantCode(t, s.joinIn(t, cats[5], victim), 409, "waitlist_email_limit")

	if res := do(t, s.organizer("POST", "/categories/"+cats[0]+"/waitlist/close", nil)); res.status != 200 {
		t.Fatalf("close: %d %s", res.status, res.body)
	}
	res := s.joinIn(t, cats[5], victim)
	wantCode(t, res, 429, "rate_limited")
	if after, err := strconv.Atoi(res.header.Get("Retry-After")); err != nil || after < 1 || after > 3600 {
		t.Fatalf("Retry-After %q, want the seconds left of the hour", res.header.Get("Retry-After"))
	}
	res = do(t, s.organizer("GET", "/categories/"+cats[5]+"/waitlist", nil))
	wantCode(t, res, 404, "not_found") // the refused joins recorded nothing

	if res := s.joinIn(t, cats[5], "someone.else@example.com"); res.status != 201 {
		t.Fatalf("another e-mail: %d %s", res.status, res.body)
	}
	if res := s.inTestMode(t).joinIn(t, cats[5], victim); res.status != 201 {
		t.Fatalf("test mode: %d %s", res.status, res.body)
	}

	// The hour passes on the waitlist's clock: the e-mail joins again.
	if err := sys.AdvanceWaitlistClock(time.Hour); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, eventTravel, func() string {
		if res := s.joinIn(t, cats[5], victim); res.status != 201 {
			return string(res.body)
		}
		return ""
	})
}

package e2e

import (
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
	"testing"
)

// TestPromocodeGuessingIsBlockedPerAddress: an address trying codes gets one answer for every
// unknown code, and after its free failures every code it sends, even a valid one, is refused
// with 429 and Retry-After before it is looked at; a buyer from another address on the same
// site still applies a valid code, and the guesser can still buy without one.
func TestPromocodeGuessingIsBlockedPerAddress(t *testing.T) {
	s := newShop(t, "PUBLISHED")
	guesser := newVisitorIP()
	summary := func(ip, code string) response {
		return s.postWith(t, s.publishable.Key, ip, "summary", map[string]any{"categoryId": s.cat, "purchaserEmail": "ana@example.com", "promocode": code})
	}
	for i := range 6 {
		code := fmt.Sprintf("GUESS%02d", i)
		res := summary(guesser, code)
		wantError(t, res, 422, code+`\" is not valid for this purchase`) // the message is JSON, quotes escaped
		wantCode(t, res, 422, "promocode_invalid")
		conforms(t, "browserCheckoutSummary", res)
	}
	blocked := summary(guesser, "FREE100")
	wantError(t, blocked, 429, "too many promocodes that are not valid were tried")
	conforms(t, "browserCheckoutSummary", blocked)
	if ra, err := strconv.Atoi(blocked.header.Get("Retry-After")); err != nil || ra < 1 || ra > 60 {
		t.Fatalf("Retry-After %q, want the minute of the first block", blocked.header.Get("Retry-After"))
	}

	res := summary(s.visitorIP, "FREE100")
	var sum struct {
		Total     int64 `json:"total"`
		Promocode struct {
			Code    string `json:"code"`
			Applied bool   `json:"applied"`
		} `json:"promocode"`
	}
	if res.status != 201 || json.Unmarshal(res.body, &sum) != nil || sum.Total != 0 || !sum.Promocode.Applied {
		t.Fatalf("a buyer from another address with FREE100: %d %s", res.status, res.body)
	}
	wantSession(t, s.postWith(t, s.publishable.Key, guesser, "session", s.purchase("Team Without Code")))
}

// TestABurstOfGuessesIsCheckedOneAfterAnother: eight unknown codes sent at once from one
// address (a burst the gateway's per-address limit lets through whole) are admitted one after
// the other: its five free failures and the sixth, which blocks it, are looked at (422) and the
// other two are refused unseen (429 with Retry-After); a buyer from another address applies a
// valid code meanwhile.
func TestABurstOfGuessesIsCheckedOneAfterAnother(t *testing.T) {
	s := newShop(t, "PUBLISHED")
	guesser := newVisitorIP()
	summary := func(ip, code string) response {
		return s.postWith(t, s.publishable.Key, ip, "summary", map[string]any{"categoryId": s.cat, "purchaserEmail": "ana@example.com", "promocode": code})
	}
	answers := make([]response, 8)
	var wg sync.WaitGroup
	for i := range answers {
		wg.Go(func() { answers[i] = summary(guesser, fmt.Sprintf("BURST%02d", i)) })
	}
	honest := summary(s.visitorIP, "FREE100")
	wg.Wait()
	looked, refused := 0, 0
	for _, res := range answers {
		switch res.status {
		case 422:
			looked++
		case 429:
			wantError(t, res, 429, "too many promocodes that are not valid were tried")
			// A guess that read its time before the sixth but waited for it sees the whole block
			// and a fraction of a second more, rounded up.
			if ra, err := strconv.Atoi(res.header.Get("Retry-After")); err != nil || ra < 1 || ra > 61 {
				t.Fatalf("Retry-After %q, want the minute of the first block", res.header.Get("Retry-After"))
			}
			refused++
		default:
			t.Fatalf("a guess answered %d %s", res.status, res.body)
		}
	}
	if looked != 6 || refused != 2 {
		t.Fatalf("%d codes looked at and %d refused; want 6 and 2", looked, refused)
	}
	if honest.status != 201 {
		t.Fatalf("a buyer from another address with FREE100: %d %s", honest.status, honest.body)
	}
}

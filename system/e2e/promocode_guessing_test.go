package e2e

import (
	"encoding/json"
	"fmt"
	"strconv"
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

package e2e

import (
	"strconv"
	"strings"
	"testing"

	"github.com/podiumhq/podium/libs/apispec"
)

// maxBody returns the largest body the document lets operation id take.
func maxBody(t *testing.T, id string) int {
	t.Helper()
	for _, op := range apispec.Operations() {
		if op.ID == id {
			return op.MaxBodyBytes
		}
	}
	t.Fatalf("no operation %s", id)
	return 0
}

// TestBrowserBodiesAreBoundedPerRoute: a browser search one byte over its operation's limit is
// refused with 413 naming the limit, before the key is looked at; one at the limit is served.
func TestBrowserBodiesAreBoundedPerRoute(t *testing.T) {
	tn := newTenant(t)
	limit := maxBody(t, "browserSearchEvents")
	body := func(n int) string { return `{"limit":5}` + strings.Repeat(" ", n-len(`{"limit":5}`)) }

	over := tn.browser("POST", "/events/search", body(limit+1))
	wantCode(t, send(t, over), 413, "body_too_large")
	wantError(t, send(t, over), 413, "accepts at most "+strconv.Itoa(limit)+" bytes")
	over.headers["x-publishable-key"] = "pdm_pk_live_not-even-a-key"
	wantError(t, send(t, over), 413, "accepts at most "+strconv.Itoa(limit)+" bytes")

	var page eventPage
	decodeOK(t, send(t, tn.browser("POST", "/events/search", body(limit))), 201, "browserSearchEvents", &page)
}

// TestAnEncodedSlashIsNotAnotherRoutesAnswer: once the gateway keeps an event's pricing cards,
// a read of the event whose id carries an encoded slash ("evt_...%2Fpricing-cards", whose
// decoded path is that of the pricing cards) is routed, kept and answered as that event: the
// catalog's 404, never the kept pricing cards.
func TestAnEncodedSlashIsNotAnotherRoutesAnswer(t *testing.T) {
	tn := newTenant(t)
	ev := tn.importEvent(t, catalogEvent("edge-route", "PUBLISHED", false))
	cards := "/events/" + ev.ID + "/pricing-cards"
	awaitAnswer(t, func() response { return send(t, tn.browser("GET", cards, nil)) },
		func(r response) bool { return r.status == 200 && r.header.Get("X-Cache") == "HIT" })

	for range 2 { // the second read would be served from the edge if the first were kept as cards
		res := send(t, tn.browser("GET", "/events/"+ev.ID+"%2Fpricing-cards", nil))
		if res.header.Get("X-Cache") == "HIT" {
			t.Fatalf("the event %s%%2Fpricing-cards was served the kept pricing cards: %s", ev.ID, res.body)
		}
		wantError(t, res, 404, "not found")
		wantCode(t, res, 404, "not_found")
	}
}

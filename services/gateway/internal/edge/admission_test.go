package edge

import (
	"context"
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/podiumhq/podium/services/gateway/internal/admission"
	"github.com/podiumhq/podium/services/gateway/internal/ratelimit"
)

// TestRequestsAnOwnerHasNoRoomForAreShed: with the catalog's one place taken by a request it
// has not answered, another read of the catalog is refused at once with 503, Retry-After and
// the standard error body, and never reaches the owner; once the first is answered, reads are
// served again.
func TestRequestsAnOwnerHasNoRoomForAreShed(t *testing.T) {
	h := newHarness(t, Limits{})
	h.gw.Admission = admission.New(ownerNames, admission.Options{InitialLimit: 1, MaxLimit: 1})
	auth := map[string]string{"Authorization": "Bearer " + h.secret}
	first := make(chan answer, 1)
	go func() {
		first <- h.do(t, call{method: "GET", path: "/organizer/events/evt_held", addr: newAddr(), headers: auth})
	}()
	<-h.owner.held
	before := len(h.owner.requests())

	res := h.do(t, call{method: "GET", path: "/organizer/events/evt_1", addr: newAddr(), headers: auth})
	wantStatus(t, res, http.StatusServiceUnavailable, "shedding load")
	if res.header.Get("Retry-After") == "" {
		t.Fatal("a shed request carries no Retry-After")
	}
	if got := len(h.owner.requests()); got != before {
		t.Fatalf("the shed request reached the owner (%d requests, had %d)", got, before)
	}

	close(h.owner.release)
	select {
	case res := <-first:
		wantStatus(t, res, http.StatusOK, "")
	case <-time.After(10 * time.Second):
		t.Fatal("the held request was not answered once released")
	}
	wantStatus(t, h.do(t, call{method: "GET", path: "/organizer/events/evt_1", addr: newAddr(), headers: auth}), http.StatusOK, "")
}

// TestShedRequestsSpendNoRateLimit: requests shed while their owner has no room are refused
// before their key's limit is charged, so once the owner has room again the key still has the
// budget those refusals did not use.
func TestShedRequestsSpendNoRateLimit(t *testing.T) {
	perKey, _ := ratelimit.ParseLimit("3/m")
	h := newHarness(t, Limits{PerKey: perKey})
	h.gw.Admission = admission.New(ownerNames, admission.Options{InitialLimit: 1, MaxLimit: 1})
	auth := map[string]string{"Authorization": "Bearer " + h.secret}
	first := make(chan answer, 1)
	go func() {
		first <- h.do(t, call{method: "GET", path: "/organizer/events/evt_held", addr: newAddr(), headers: auth})
	}()
	<-h.owner.held
	for range 5 {
		wantStatus(t, h.do(t, call{method: "GET", path: "/organizer/events/evt_1", addr: newAddr(), headers: auth}), http.StatusServiceUnavailable, "shedding load")
	}
	close(h.owner.release)
	wantStatus(t, <-first, http.StatusOK, "")
	for i := range 2 { // the limit's 3, less the held request's
		if res := h.do(t, call{method: "GET", path: "/organizer/events/evt_1", addr: newAddr(), headers: auth}); res.status != http.StatusOK {
			t.Fatalf("read %d after the shed ones: %d %s, want 200: the shed requests spent the key's limit", i+1, res.status, res.body)
		}
	}
	wantStatus(t, h.do(t, call{method: "GET", path: "/organizer/events/evt_1", addr: newAddr(), headers: auth}), http.StatusTooManyRequests, "")
}

// TestKeptAnswersAreServedWhileTheirOwnerIsFull: while the catalog has no room, a page read the
// edge keeps an answer for is still served from it, and one it keeps none for is shed.
func TestKeptAnswersAreServedWhileTheirOwnerIsFull(t *testing.T) {
	h := newHarness(t, Limits{})
	h.gw.Admission = admission.New(ownerNames, admission.Options{InitialLimit: 1, MaxLimit: 1})
	page := func(path string) answer {
		return h.do(t, call{method: "GET", path: path, addr: newAddr(), headers: h.browserHeaders(site)})
	}
	const kept = "/browser/events/evt_1/pricing-cards"
	if res := page(kept); res.status != http.StatusOK || res.header.Get("X-Cache") != "MISS" {
		t.Fatalf("first read: %d, X-Cache %q", res.status, res.header.Get("X-Cache"))
	}
	first := make(chan answer, 1)
	go func() {
		first <- h.do(t, call{method: "GET", path: "/organizer/events/evt_held", addr: newAddr(), headers: map[string]string{"Authorization": "Bearer " + h.secret}})
	}()
	<-h.owner.held
	if res := page(kept); res.status != http.StatusOK || res.header.Get("X-Cache") != "HIT" {
		t.Fatalf("a kept answer while the catalog is full: %d, X-Cache %q, want 200 HIT", res.status, res.header.Get("X-Cache"))
	}
	wantStatus(t, page("/browser/events/evt_2/pricing-cards"), http.StatusServiceUnavailable, "shedding load")
	close(h.owner.release)
	wantStatus(t, <-first, http.StatusOK, "")
}

// TestAFullCheckoutShedsOtherOwnersOnlyWhileShortOfCPU: while checkout has no room, so that
// every checkout session is refused, the catalog's public reads are still served as long as
// the gateway has CPU to spare, calibration after calibration; once the gateway is short of
// CPU, they are shed too, so that sessions come first.
func TestAFullCheckoutShedsOtherOwnersOnlyWhileShortOfCPU(t *testing.T) {
	h := newHarness(t, Limits{})
	var short atomic.Bool
	calibrations := make(chan struct{}, 1)
	h.gw.Admission = admission.New(ownerNames, admission.Options{InitialLimit: 1, MaxLimit: 1,
		Starved: func() bool {
			select {
			case calibrations <- struct{}{}:
			default:
			}
			return short.Load()
		}})
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	go func() { _ = h.gw.Admission.Run(ctx) }()
	held, err := h.gw.Admission.Admit(t.Context(), Checkout, admission.Payments) // checkout's only place
	if err != nil {
		t.Fatal(err)
	}
	defer held.Drop()
	session := call{method: "POST", path: "/browser/checkout/registration/session", body: "{}", headers: h.browserHeaders(site)}
	page := 0
	read := func() answer {
		page++
		return h.do(t, call{method: "GET", path: fmt.Sprintf("/browser/events/evt_%d/pricing-cards", page), addr: newAddr(), headers: h.browserHeaders(site)})
	}

	for range 20 {
		<-calibrations
		session.addr = newAddr()
		wantStatus(t, h.do(t, session), http.StatusServiceUnavailable, "shedding load")
		if res := read(); res.status != http.StatusOK {
			t.Fatalf("a public read of the catalog while checkout is full and the gateway has CPU: %d %s, want 200", res.status, res.body)
		}
	}

	short.Store(true)
	for range 40 {
		<-calibrations
		session.addr = newAddr()
		wantStatus(t, h.do(t, session), http.StatusServiceUnavailable, "shedding load")
		if res := read(); res.status == http.StatusServiceUnavailable {
			wantStatus(t, res, http.StatusServiceUnavailable, "shedding load")
			return
		}
	}
	t.Fatal("40 calibrations short of CPU with checkout full, and the catalog's public reads were never shed")
}

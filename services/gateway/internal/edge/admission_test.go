package edge

import (
	"net/http"
	"testing"
	"time"

	"github.com/podiumhq/podium/services/gateway/internal/admission"
)

// TestRequestsAnOwnerHasNoRoomForAreShed: with the catalog's one place taken by a request it
// has not answered, another read of the catalog is refused at once with 503, Retry-After and
// the standard error body, and never reaches the owner; once the first is answered, reads are
// served again.
func TestRequestsAnOwnerHasNoRoomForAreShed(t *testing.T) {
	h := newHarness(t, Limits{})
	h.gw.Admission = admission.New([]string{Catalog, Registration, Checkout}, admission.Options{InitialLimit: 1, MaxLimit: 1})
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

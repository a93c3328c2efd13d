package catalog_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"sync/atomic"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/libs/identity/identitytest"
	"github.com/podiumhq/podium/services/registration/internal/adapters/catalog"
	"github.com/podiumhq/podium/services/registration/internal/domain"
)

func TestEventIsCachedAndCallerSigned(t *testing.T) {
	var calls atomic.Int32
	var gotCaller, gotRequestID atomic.Value
	issuers := identitytest.New(t)
	verifier := issuers.Verifier(identity.Catalog)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		v, err := verifier.Verify(r.Header.Get(identity.Header))
		if err != nil {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		gotCaller.Store(v)
		gotRequestID.Store(r.Header.Get("X-Request-Id"))
		switch r.URL.Path {
		case "/internal/events/evt_1":
			_ = json.NewEncoder(w).Encode(domain.Event{ID: "evt_1", OrganizerID: "org_1", StartDate: "2027-06-12"})
		case "/internal/events/evt_down":
			w.WriteHeader(http.StatusServiceUnavailable)
		default:
			w.WriteHeader(http.StatusNotFound)
		}
	}))
	defer srv.Close()
	c := catalog.New(srv.URL, 200*time.Millisecond, issuers.Signer(identity.Registration))
	clock := time.Date(2027, 1, 1, 12, 0, 0, 0, time.UTC)
	catalog.SetClock(c, func() time.Time { return clock })
	browser := identity.Principal{OrganizerID: "org_1", KeyID: "key_pk", KeyType: identity.Publishable, Origin: "https://shop.example"}
	ctx := catalog.WithCaller(context.Background(), catalog.Caller{Principal: browser, RequestID: "req_1"})
	for range 3 {
		e, err := c.Event(ctx, "evt_1")
		if err != nil || e.OrganizerID != "org_1" {
			t.Fatalf("event %+v %v", e, err)
		}
	}
	want := identity.Verified{Issuer: identity.Registration, Principal: identity.Principal{OrganizerID: "org_1", KeyID: "key_pk", KeyType: identity.Publishable}}
	if got, _ := gotCaller.Load().(identity.Verified); calls.Load() != 1 || !reflect.DeepEqual(got, want) || gotRequestID.Load() != "req_1" {
		t.Fatalf("calls %d caller %+v request id %v", calls.Load(), gotCaller.Load(), gotRequestID.Load())
	}
	clock = clock.Add(250 * time.Millisecond)
	if _, err := c.Event(ctx, "evt_1"); err != nil || calls.Load() != 2 {
		t.Fatalf("after the TTL: %d calls, %v", calls.Load(), err)
	}
	for range 2 { // not-found answers are not cached
		if _, err := c.Event(ctx, "evt_other"); !errors.Is(err, fault.ErrNotFound) {
			t.Fatalf("unknown event: %v", err)
		}
	}
	if calls.Load() != 4 {
		t.Fatalf("%d calls", calls.Load())
	}
	if _, err := c.Event(ctx, "evt_down"); !errors.Is(err, fault.ErrUnavailable) {
		t.Fatalf("catalog down: %v", err)
	}
}

package catalog_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/libs/identity/identitytest"
	"github.com/podiumhq/podium/libs/peer"
	"github.com/podiumhq/podium/services/registration/internal/adapters/catalog"
	"github.com/podiumhq/podium/services/registration/internal/domain"
	"github.com/podiumhq/podium/services/registration/internal/regtest"
)

var browser = identity.Principal{OrganizerID: "org_1", KeyID: "key_pk", KeyType: identity.Publishable, Origin: "https://shop.example"}

func newClient(issuers *identitytest.Issuers, base string, rt http.RoundTripper, ttl time.Duration) *catalog.Client {
	return catalog.New(peer.New(peer.Options{Name: identity.Catalog, BaseURL: base, Timeout: 5 * time.Second,
		Signer: issuers.Signer(identity.Registration), Transport: rt}), ttl)
}

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
		gotRequestID.Store(r.Header.Get(httpserver.HeaderRequestID))
		switch r.URL.Path {
		case "/internal/events/evt_1":
			_, _ = w.Write(catalogDocument(t, regtest.Event("evt_1", "org_1")))
		case "/internal/events/evt_down":
			w.WriteHeader(http.StatusServiceUnavailable)
		case "/internal/events/evt_refused":
			w.WriteHeader(http.StatusForbidden)
		default:
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write([]byte(`{"statusCode":404,"message":"event evt_other not found"}`))
		}
	}))
	defer srv.Close()
	c := newClient(issuers, srv.URL, nil, 200*time.Millisecond)
	clock := time.Date(2027, 1, 1, 12, 0, 0, 0, time.UTC)
	catalog.SetClock(c, func() time.Time { return clock })
	ctx := httpserver.WithRequestID(t.Context(), "req_1")
	for range 3 {
		e, err := c.Event(ctx, browser, "evt_1")
		if err != nil || e.OrganizerID != "org_1" {
			t.Fatalf("event %+v %v", e, err)
		}
	}
	want := identity.Verified{Issuer: identity.Registration, Principal: identity.Principal{OrganizerID: "org_1", KeyID: "key_pk", KeyType: identity.Publishable}}
	if got, _ := gotCaller.Load().(identity.Verified); calls.Load() != 1 || !reflect.DeepEqual(got, want) || gotRequestID.Load() != "req_1" {
		t.Fatalf("calls %d caller %+v request id %v", calls.Load(), gotCaller.Load(), gotRequestID.Load())
	}
	clock = clock.Add(250 * time.Millisecond)
	if _, err := c.Event(ctx, browser, "evt_1"); err != nil || calls.Load() != 2 {
		t.Fatalf("after the TTL: %d calls, %v", calls.Load(), err)
	}
	for range 2 { // not-found answers are not cached
		if _, err := c.Event(ctx, browser, "evt_other"); !errors.Is(err, fault.ErrNotFound) || !strings.Contains(err.Error(), "event evt_other not found") {
			t.Fatalf("unknown event: %v", err)
		}
	}
	if calls.Load() != 4 {
		t.Fatalf("%d calls", calls.Load())
	}
	if _, err := c.Event(ctx, browser, "evt_down"); !errors.Is(err, fault.ErrUnavailable) {
		t.Fatalf("catalog down: %v", err)
	}
	// A refusal the catalog's contract does not give a caller it serves is our own bug.
	if _, err := c.Event(ctx, browser, "evt_refused"); fault.KindOf(err) != fault.Internal || err == nil {
		t.Fatalf("catalog refusing the call: %v", err)
	}
}

// roundTrip answers a call as a function says.
type roundTrip func(*http.Request) (*http.Response, error)

func (f roundTrip) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// TestACancelledCallerLeavesTheSharedReadToOthers: a caller that gives up while a second waits
// for the same read fails alone; the read goes on and the second gets the event.
func TestACancelledCallerLeavesTheSharedReadToOthers(t *testing.T) {
	issuers := identitytest.New(t)
	event := catalogDocument(t, regtest.Event("evt_1", "org_1"))
	synctest.Test(t, func(t *testing.T) {
		var calls atomic.Int32
		release := make(chan struct{})
		catalogAnswers := roundTrip(func(r *http.Request) (*http.Response, error) {
			calls.Add(1)
			select {
			case <-release:
			case <-r.Context().Done():
				return nil, r.Context().Err()
			}
			return &http.Response{StatusCode: http.StatusOK, Header: http.Header{}, Request: r,
				Body: io.NopCloser(bytes.NewReader(event))}, nil
		})
		c := newClient(issuers, "http://catalog.test", catalogAnswers, 0)

		first, cancel := context.WithCancel(t.Context())
		firstErr := make(chan error, 1)
		go func() {
			_, err := c.Event(first, browser, "evt_1")
			firstErr <- err
		}()
		synctest.Wait() // the first caller's read reached the catalog
		second := make(chan domain.Event, 1)
		go func() {
			e, err := c.Event(t.Context(), browser, "evt_1")
			if err != nil {
				t.Errorf("second caller: %v", err)
			}
			second <- e
		}()
		synctest.Wait() // the second caller waits for the same read

		cancel()
		if err := <-firstErr; !errors.Is(err, context.Canceled) {
			t.Fatalf("first caller: %v, want its cancellation", err)
		}
		close(release)
		if e := <-second; e.ID != "evt_1" || e.OrganizerID != "org_1" {
			t.Fatalf("second caller got %+v", e)
		}
		if n := calls.Load(); n != 1 {
			t.Fatalf("%d reads, want the one both callers shared", n)
		}
	})
}

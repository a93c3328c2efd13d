package app_test

import (
	"encoding/json"
	"errors"
	"log/slog"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/checkout/internal/app"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

var buyer = app.Buyer{Principal: identity.Principal{OrganizerID: "org_1", KeyID: "key_pub_1", KeyType: identity.Publishable}}

// fixture is the service on in-memory ports: a published event with one category, and the
// store, registration and payment provider the tests look into.
type fixture struct {
	store        *store
	registration *registration
	payments     *payments
	svc          *app.Service
}

func newFixture(o app.Options) *fixture {
	f := &fixture{store: newStore(), registration: &registration{orders: map[string]string{}}, payments: &payments{}}
	f.svc = f.restart(o)
	return f
}

// restart returns another instance of the service on the same ports: nothing the first kept in
// memory is known to it.
func (f *fixture) restart(o app.Options) *app.Service {
	ev := domain.Event{
		ID: "evt_1", OrganizerID: "org_1", Name: "Summer", Status: domain.StatusPublished, Currency: "EUR",
		StartDate:  time.Date(2027, 6, 12, 0, 0, 0, 0, time.UTC),
		Categories: []domain.Category{{ID: "cat_rx", Name: "RX", TeamMin: 1, TeamMax: 1, ActivePrice: 5500, Published: true}},
	}
	return app.New(f.store, catalog{ev}, f.registration, f.payments, slog.New(slog.DiscardHandler), o)
}

// purchase is a session request of team with idempotency key key.
func purchase(t *testing.T, key, team string) app.SessionRequest {
	p := domain.Purchase{
		EventID: "evt_1", IdempotencyKey: key, CategoryID: "cat_rx", TeamName: team, TermsAccepted: true,
		Athletes:       []domain.Athlete{{Fullname: "Ana Ruiz", Email: "ana@example.com", Gender: "F", BirthDate: "1990-04-01"}},
		PurchaserEmail: "ana@example.com", PurchaserName: "Ana Ruiz", SuccessURL: "https://shop.example/ok", CancelURL: "https://shop.example/cart",
	}
	body, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	return app.SessionRequest{Buyer: buyer, Body: body, Decode: func() (domain.Purchase, error) { return p, nil }}
}

// TestAFinishedRequestIsReplayed: the first request with a key runs (one hold, one payment
// session) and stores its answer; the same request again, in this process or another one,
// gets that answer and runs nothing, after one check: in this process from memory (no read,
// nothing decoded), in another with one read of the record.
func TestAFinishedRequestIsReplayed(t *testing.T) {
	f := newFixture(app.Options{})
	in := purchase(t, "key-1", "Team A")
	decodes := 0
	decode := in.Decode
	in.Decode = func() (domain.Purchase, error) { decodes++; return decode() }
	first, err := f.svc.CreateSession(t.Context(), in)
	if err != nil || first.Replayed || first.SessionID == "" || first.OrderID == "" || decodes != 1 {
		t.Fatalf("first request: %+v %v, decoded %d times", first, err, decodes)
	}
	if r := f.store.record(buyer.KeyID, "key-1"); r.State != domain.IdemSucceeded || len(r.Response) == 0 {
		t.Fatalf("record after the first request: %+v", r)
	}
	for _, c := range []struct {
		name           string
		svc            *app.Service
		decodes, reads int
	}{
		{"same instance", f.svc, 0, 0},
		{"restarted", f.restart(app.Options{}), 1, 1},
	} {
		decodes = 0
		reads := f.store.reads()
		again, err := c.svc.CreateSession(t.Context(), in)
		if err != nil || !again.Replayed || again.SessionID != first.SessionID || again.SessionURL != first.SessionURL || again.OrderID != first.OrderID {
			t.Fatalf("%s: %+v %v, want the first answer %+v replayed", c.name, again, err, first)
		}
		if decodes != c.decodes || f.store.reads()-reads != c.reads {
			t.Fatalf("%s: decoded %d times, read %d records; want %d and %d", c.name, decodes, f.store.reads()-reads, c.decodes, c.reads)
		}
	}
	if holds, _ := f.registration.holds(); holds != 1 || f.payments.opened() != 1 {
		t.Fatalf("%d holds and %d payment sessions, want 1 and 1", holds, f.payments.opened())
	}
}

// TestTheSameKeyWithAnotherBodyIsRefused: a key is bound to the body it was first used with.
func TestTheSameKeyWithAnotherBodyIsRefused(t *testing.T) {
	f := newFixture(app.Options{})
	if _, err := f.svc.CreateSession(t.Context(), purchase(t, "key-1", "Team A")); err != nil {
		t.Fatal(err)
	}
	_, err := f.svc.CreateSession(t.Context(), purchase(t, "key-1", "Team B"))
	if !errors.Is(err, domain.ErrIdempotencyMismatch) || fault.KindOf(err) != fault.Unprocessable {
		t.Fatalf("another body: %v, want the mismatch (unprocessable)", err)
	}
	if holds, _ := f.registration.holds(); holds != 1 {
		t.Fatalf("%d holds, want the first request's only", holds)
	}
}

// TestARequestWaitsForItsKeyStillRunning: a retry while the first request runs waits for it
// up to IdempotencyWait, then is told the key is busy; a retry during which the first
// finishes gets its answer.
func TestARequestWaitsForItsKeyStillRunning(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(app.Options{IdempotencyWait: 5 * time.Second})
		f.registration.proceed = make(chan struct{})
		in := purchase(t, "key-1", "Team A")
		type answer struct {
			res app.SessionResult
			err error
		}
		run := func() <-chan answer {
			ch := make(chan answer, 1)
			go func() {
				res, err := f.svc.CreateSession(t.Context(), in)
				ch <- answer{res, err}
			}()
			return ch
		}
		first := run()
		synctest.Wait() // the first request holds the key, waiting for registration

		start := time.Now()
		if _, err := f.svc.CreateSession(t.Context(), in); !errors.Is(err, domain.ErrIdempotencyBusy) {
			t.Fatalf("a retry while the key runs: %v, want busy", err)
		}
		if waited := time.Since(start); waited < 5*time.Second || waited > 5*time.Second+50*time.Millisecond {
			t.Fatalf("the retry waited %s, want IdempotencyWait (5s) and at most one poll (50ms) more", waited)
		}

		second := run()
		synctest.Wait() // the retry polls the record
		close(f.registration.proceed)
		a, b := <-first, <-second
		if a.err != nil || b.err != nil || a.res.Replayed || !b.res.Replayed || b.res.SessionID != a.res.SessionID || b.res.OrderID != a.res.OrderID {
			t.Fatalf("first %+v, retry %+v: want the first's answer replayed", a, b)
		}
		if holds, _ := f.registration.holds(); holds != 1 || f.payments.opened() != 1 {
			t.Fatalf("%d holds and %d payment sessions, want 1 and 1", holds, f.payments.opened())
		}
	})
}

// TestAFailedAttemptReleasesItsKey: a failure marks the key FAILED and the checkout FAILED,
// releasing the hold when there may be one (registration unreachable: its hold may have been
// made; a refusal held nothing, so nothing is released); the same key then runs again.
func TestAFailedAttemptReleasesItsKey(t *testing.T) {
	for _, c := range []struct {
		name     string
		fail     func(*fixture)
		kind     fault.Kind
		released bool
	}{
		{"registration down", func(f *fixture) {
			f.registration.refuse = fault.NewUnavailable("registration", errors.New("connection refused"))
		}, fault.Unavailable, true},
		{"sold out", func(f *fixture) { f.registration.refuse = fault.NewConflict("category cat_rx has no places left") }, fault.Conflict, false},
		{"payment provider down", func(f *fixture) { f.payments.down = errors.New("stripe: api_error (HTTP 503)") }, fault.Unavailable, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(app.Options{})
			c.fail(f)
			in := purchase(t, "key-1", "Team A")
			_, err := f.svc.CreateSession(t.Context(), in)
			if fault.KindOf(err) != c.kind {
				t.Fatalf("answer %v, want %v", err, c.kind)
			}
			rec := f.store.record(buyer.KeyID, "key-1")
			if rec.State != domain.IdemFailed || f.store.checkout(rec.CheckoutID).State != domain.StateFailed {
				t.Fatalf("record %+v, checkout %s; want both FAILED", rec, f.store.checkout(rec.CheckoutID).State)
			}
			if _, released := f.registration.holds(); slices.Contains(released, rec.CheckoutID) != c.released {
				t.Fatalf("released holds %v; want the checkout's released: %v", released, c.released)
			}
			f.registration.refuse, f.payments.down = nil, nil
			again, err := f.svc.CreateSession(t.Context(), in)
			if err != nil || again.Replayed || f.store.record(buyer.KeyID, "key-1").State != domain.IdemSucceeded {
				t.Fatalf("the same key after the failure: %+v %v, want it run again", again, err)
			}
		})
	}
}

// TestThePaymentProviderDownIsUnavailable: Stripe failing is answered as unavailable (503
// with Retry-After), saying nothing was charged.
func TestThePaymentProviderDownIsUnavailable(t *testing.T) {
	f := newFixture(app.Options{})
	cause := errors.New("stripe: api_error (HTTP 503)")
	f.payments.down = cause
	_, err := f.svc.CreateSession(t.Context(), purchase(t, "", "Team A"))
	e, ok := fault.Of(err)
	if !ok || e.Kind != fault.Unavailable || !slices.Equal(e.Problems, []string{"the payment provider is unavailable; nothing was charged, retry"}) || !errors.Is(err, cause) {
		t.Fatalf("answer %v, want the payment provider unavailable, caused by Stripe's failure", err)
	}
}

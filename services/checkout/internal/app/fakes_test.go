package app_test

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/checkout/internal/app"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// store keeps idempotency records and checkouts in memory, with the store's semantics for what
// a session request uses (see the Repository port). Other methods are not expected: the
// embedded nil interface makes them panic.
type store struct {
	app.Repository
	mu        sync.Mutex
	records   map[string]domain.IdempotencyRecord // by key id and key
	checkouts map[string]domain.Checkout
	// recordReads counts the reads of idempotency records.
	recordReads int
}

func newStore() *store {
	return &store{records: map[string]domain.IdempotencyRecord{}, checkouts: map[string]domain.Checkout{}}
}

func recordKey(keyID, key string) string { return keyID + "/" + key }

// record returns the record of a key.
func (s *store) record(keyID, key string) domain.IdempotencyRecord {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.records[recordKey(keyID, key)]
}

// checkout returns a checkout.
func (s *store) checkout(id string) domain.Checkout {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.checkouts[id]
}

// reads returns how many idempotency records were read.
func (s *store) reads() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.recordReads
}

func (s *store) Idempotency(_ context.Context, keyID string, _ bool, key string) (domain.IdempotencyRecord, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.recordReads++
	r, ok := s.records[recordKey(keyID, key)]
	return r, ok, nil
}

func (s *store) InsertIdempotency(_ context.Context, r domain.IdempotencyRecord) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := recordKey(r.KeyID, r.Key)
	if _, ok := s.records[k]; ok {
		return false, nil
	}
	r.State = domain.IdemRunning
	s.records[k] = r
	return true, nil
}

func (s *store) TakeOverIdempotency(_ context.Context, r domain.IdempotencyRecord, newCheckoutID string, now time.Time) (string, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := recordKey(r.KeyID, r.Key)
	old := s.records[k]
	expired := !now.Before(old.ExpiresAt)
	lapsed := old.State == domain.IdemRunning && old.LockedUntil.Before(now)
	if old.State != domain.IdemFailed && !lapsed && !expired {
		return "", false, nil
	}
	id := newCheckoutID
	if c, ok := s.checkouts[old.CheckoutID]; lapsed && !expired && ok && c.Resumable() {
		id = old.CheckoutID
	}
	r.State, r.CheckoutID, r.Response = domain.IdemRunning, id, nil
	s.records[k] = r
	return id, true, nil
}

func (s *store) FailIdempotency(_ context.Context, keyID string, _ bool, key, checkoutID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := recordKey(keyID, key)
	if r := s.records[k]; r.State == domain.IdemRunning && r.CheckoutID == checkoutID {
		r.State, r.Response = domain.IdemFailed, nil
		s.records[k] = r
	}
	return nil
}

func (s *store) CreateCheckout(_ context.Context, c domain.Checkout) (domain.Checkout, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if stored, ok := s.checkouts[c.ID]; ok {
		return stored, true, nil
	}
	s.checkouts[c.ID] = c
	return c, false, nil
}

func (s *store) Update(_ context.Context, u app.Update, fn func(*domain.Checkout) ([]domain.Message, error)) (domain.Checkout, app.Outcome, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.checkouts[u.Ref.ID]
	if !ok {
		return domain.Checkout{}, 0, domain.ErrCheckoutNotFound
	}
	if _, err := fn(&c); err != nil {
		return domain.Checkout{}, 0, err
	}
	if o := u.Idempotency; o != nil {
		k := recordKey(o.KeyID, o.Key)
		r := s.records[k]
		if r.State != domain.IdemRunning || r.CheckoutID != o.CheckoutID {
			return domain.Checkout{}, 0, fmt.Errorf("the key no longer belongs to checkout %s", o.CheckoutID)
		}
		r.State, r.Response = domain.IdemSucceeded, o.Response
		s.records[k] = r
	}
	s.checkouts[c.ID] = c
	return c, app.ChangeApplied, nil
}

// catalog serves one published event.
type catalog struct{ event domain.Event }

func (c catalog) Event(context.Context, identity.Principal, string) (domain.Event, error) {
	return c.event, nil
}

func (c catalog) EventOfCategory(context.Context, identity.Principal, string) (domain.Event, error) {
	return c.event, nil
}

// registration holds places as registration does (a known hold id returns its order), or
// fails with refuse; a hold waits for proceed when it is set.
type registration struct {
	mu       sync.Mutex
	orders   map[string]string // by hold id
	released []string
	refuse   error
	proceed  chan struct{}
}

func (r *registration) Hold(ctx context.Context, _ identity.Principal, h domain.HoldRequest) (domain.Hold, error) {
	if r.proceed != nil {
		select {
		case <-r.proceed:
		case <-ctx.Done():
			return domain.Hold{}, ctx.Err()
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.refuse != nil {
		return domain.Hold{}, r.refuse
	}
	id, ok := r.orders[h.HoldID]
	if !ok {
		id = fmt.Sprintf("ord_%d", len(r.orders)+1)
		r.orders[h.HoldID] = id
	}
	return domain.Hold{OrderID: id, ExpiresAt: h.ExpiresAt}, nil
}

func (r *registration) ReleaseHold(_ context.Context, _ identity.Principal, holdID, _ string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.released = append(r.released, holdID)
	return nil
}

// holds returns how many orders were made and which hold ids were released.
func (r *registration) holds() (int, []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.orders), append([]string(nil), r.released...)
}

// payments opens a session per checkout, or fails with down.
type payments struct {
	app.Payments
	mu       sync.Mutex
	sessions int
	down     error
}

func (p *payments) CreateSession(_ context.Context, r domain.PaymentRequest) (domain.PaymentSession, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.down != nil {
		return domain.PaymentSession{}, p.down
	}
	p.sessions++
	return domain.PaymentSession{ID: "cs_" + r.CheckoutID, URL: "https://pay.example/" + r.CheckoutID, ExpiresAt: r.ExpiresAt}, nil
}

func (p *payments) opened() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.sessions
}

package domain

import "time"

// ListedSession is a Checkout Session as the payment provider lists it: when it was created and
// what its state says.
type ListedSession struct {
	Created time.Time
	// Outcome reads the session's state as its webhook would report it: PaymentCompleted (Paid,
	// or awaiting a delayed payment), PaymentAsyncFailed (a delayed payment that failed, when
	// the session was read with its payment) or PaymentExpired; its Kind is empty while the
	// session is open.
	Outcome PaymentEvent
}

// Open reports whether the session is still open: it may be paid or expire at any time.
func (s ListedSession) Open() bool { return s.Outcome.Kind == "" }

// Ours reports whether the session names a checkout (checkout's sessions always do; another
// system's on the same account do not).
func (s ListedSession) Ours() bool { return s.Outcome.CheckoutID != "" }

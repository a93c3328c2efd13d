package delivery

import (
	"errors"
	"fmt"
	"net/http"
	"time"
)

// Status is a delivery's state.
type Status string

// The states of a delivery.
const (
	Pending   Status = "pending"
	Succeeded Status = "succeeded"
	Failed    Status = "failed"
)

// DisabledReason is why an endpoint was disabled.
type DisabledReason string

// The reasons a delivery disables its endpoint.
const (
	// Gone: the endpoint answered 410 Gone.
	Gone DisabledReason = "gone"
	// Failing: the endpoint has failed every attempt for FailingLimit.
	Failing DisabledReason = "failing"
)

// FailingLimit is how long an endpoint fails every attempt before it is disabled.
const FailingLimit = 5 * 24 * time.Hour

// Kind names what an attempt got, for metrics and logs.
type Kind string

// The kinds of attempt results.
const (
	KindSuccess  Kind = "success"
	KindStatus   Kind = "status"   // an answer other than 2xx, 3xx or 410
	KindRedirect Kind = "redirect" // a 3xx, not followed
	KindGone     Kind = "gone"     // 410
	KindTimeout  Kind = "timeout"
	KindRefused  Kind = "refused_address"
	KindInvalid  Kind = "invalid_url"
	KindNetwork  Kind = "connection"
	KindSigning  Kind = "signing" // no secret could be read: nothing was sent
)

// Attempt is an attempt that was made, and what the decision on it needs to know.
type Attempt struct {
	// N counts the delivery's attempts, from 1.
	N int
	// Step is its place in the retry schedule, from 1: N less the attempts made before a
	// manual retry or recover restarted the schedule.
	Step int
	// First is when the schedule's first attempt started (StartedAt for the first): the
	// start of its retry window.
	First     time.Time
	StartedAt time.Time
	Response  Response
}

// Outcome is the decision on an attempt: the delivery's state after it, and its endpoint's.
type Outcome struct {
	// At is when it was decided.
	At     time.Time
	Kind   Kind
	Status Status
	// NextAttemptAt is when it is attempted again, while Pending.
	NextAttemptAt time.Time
	// Error says why the attempt failed; "" when it succeeded.
	Error string
	// FailingSince is the endpoint's first failed attempt since its last success, after this
	// one: nil when this one succeeded.
	FailingSince *time.Time
	// Disable, when set, disables the endpoint; its other pending deliveries then fail.
	Disable DisabledReason
}

// UnsignedRetry is how soon a delivery that could not be signed is attempted again.
const UnsignedRetry = 5 * time.Minute

// Decide returns the outcome of attempt a that ended at now, of an endpoint failing since
// failingSince (nil: its last attempt succeeded), with random for the jitter of the next
// attempt:
//   - a 2xx answer succeeds;
//   - a delivery that could not be signed (our failure) waits UnsignedRetry, the endpoint's
//     failing state untouched;
//   - 410 Gone fails the delivery and disables the endpoint;
//   - any other answer (3xx included: redirects are not followed), a timeout or a failure to
//     connect fails the attempt; an endpoint failing since FailingLimit ago then is disabled
//     and the delivery fails; otherwise it is attempted again on schedule (NextAttempt), or
//     later when a 429 or 503 answer's Retry-After names a later time (it only lengthens the
//     wait), within the retry window, and fails at its end or after MaxAttemptsPerWindow.
func Decide(a Attempt, failingSince *time.Time, now time.Time, random func() float64) Outcome {
	kind, reason := judge(a.Response)
	switch kind {
	case KindSuccess:
		return Outcome{At: now, Kind: kind, Status: Succeeded}
	case KindSigning:
		// The failure is ours (no secret could be read): the endpoint is not counted as
		// failing and the delivery waits, however long, until its secret can be read.
		return Outcome{At: now, Kind: kind, Status: Pending, NextAttemptAt: now.Add(UnsignedRetry), Error: reason, FailingSince: failingSince}
	}
	since := a.StartedAt
	if failingSince != nil && failingSince.Before(since) {
		since = *failingSince
	}
	o := Outcome{At: now, Kind: kind, Status: Failed, Error: reason, FailingSince: &since}
	switch {
	case kind == KindGone:
		o.Disable = Gone
		return o
	case now.Sub(since) >= FailingLimit:
		o.Disable = Failing
		return o
	}
	next, ok := NextAttempt(a.Step, a.First, now, random)
	if code := a.Response.StatusCode; ok && (code == http.StatusTooManyRequests || code == http.StatusServiceUnavailable) {
		if wait, found := RetryAfter(a.Response.RetryAfter, now); found && now.Add(wait).After(next) {
			next, ok = withinWindow(a.First, now, now.Add(wait))
		}
	}
	if a.Step >= MaxAttemptsPerWindow {
		ok = false
	}
	if ok {
		o.Status, o.NextAttemptAt = Pending, next
	}
	return o
}

// RefusedReason is what an organizer is told of an attempt refused by the address guard.
const RefusedReason = "the host resolves to an address receivers must not have (private, loopback, link-local, reserved or metadata)"

// judge tells what a response is, and why it failed ("" when it succeeded).
func judge(r Response) (Kind, string) {
	var refused *RefusedAddressError
	switch code := r.StatusCode; {
	case r.Err != nil && errors.As(r.Err, &refused):
		// The organizer reads this: the address stays in the service's log (logOutcome), so
		// an endpoint cannot map what the cluster's names resolve to.
		return KindRefused, RefusedReason
	case errors.Is(r.Err, ErrInvalidURL):
		return KindInvalid, r.Err.Error()
	case errors.Is(r.Err, ErrUnsigned):
		return KindSigning, r.Err.Error()
	case errors.Is(r.Err, ErrTimeout):
		return KindTimeout, r.Err.Error()
	case r.Err != nil:
		return KindNetwork, r.Err.Error()
	case code >= 200 && code <= 299:
		return KindSuccess, ""
	case code == http.StatusGone:
		return KindGone, "the endpoint answered 410 Gone"
	case code >= 300 && code <= 399:
		return KindRedirect, fmt.Sprintf("redirect not followed (%d)", code)
	default:
		return KindStatus, fmt.Sprintf("the endpoint answered %d", code)
	}
}

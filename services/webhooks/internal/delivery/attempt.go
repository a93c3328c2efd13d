package delivery

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// ErrUnsigned is a delivery that cannot be signed: its endpoint has no readable secret.
var ErrUnsigned = errors.New("no signing secret could be read")

// Next is j's next attempt, started at started: numbered after the attempts made, placed in
// the schedule after those since it (re)started, in the window of its first attempt.
func (j Job) Next(started time.Time) Attempt {
	a := Attempt{N: j.Attempts + 1, Step: j.Attempts - j.ScheduleBase + 1, First: started, StartedAt: started}
	if j.FirstAttemptAt != nil {
		a.First = *j.FirstAttemptAt
	}
	return a
}

// attempt sends j once and records what happened.
func (d *Dispatcher) attempt(ctx context.Context, j Job) {
	started := d.Clock.Now()
	a := j.Next(started)
	sent := time.Now()
	switch {
	case j.SecretsErr != nil:
		a.Response = Response{Err: fmt.Errorf("%w: %w", ErrUnsigned, j.SecretsErr)}
	case len(j.Secrets) == 0:
		a.Response = Response{Err: ErrUnsigned}
	default:
		a.Response = d.Client.Send(ctx, Request{URL: j.URL, MessageID: j.MessageID, Body: j.Body, Secrets: j.Secrets, Timestamp: started})
	}
	took := time.Since(sent)
	o, err := d.record(ctx, Record{Job: j, Attempt: a, Latency: took}, sent.Add(j.LeasedUntil.Sub(started)))
	switch {
	case errors.Is(err, ErrNotLeased):
		d.Log.InfoContext(ctx, "delivery attempt left unrecorded: the delivery was recorded or failed meanwhile",
			"endpoint", j.EndpointID, "delivery", j.DeliveryID, "attempt", a.N)
		return
	case err != nil:
		d.Log.ErrorContext(ctx, "recording a delivery attempt failed; it is attempted again once its lease ends",
			"endpoint", j.EndpointID, "delivery", j.DeliveryID, "attempt", a.N, "err", err)
		return
	}
	count(ctx, o, took)
	d.logOutcome(ctx, j, a, o)
}

// record stores r, retrying a failure of the store until leaseEnd (on this process's clock):
// after that another instance may attempt the delivery again.
func (d *Dispatcher) record(ctx context.Context, r Record, leaseEnd time.Time) (Outcome, error) {
	decide := func(failingSince *time.Time) Outcome {
		return Decide(r.Attempt, failingSince, d.Clock.Now(), d.Random)
	}
	wait := 100 * time.Millisecond
	for {
		o, err := d.Store.Record(ctx, r, decide)
		if err == nil || errors.Is(err, ErrNotLeased) || time.Now().Add(wait).After(leaseEnd) {
			return o, err
		}
		d.Log.WarnContext(ctx, "recording a delivery attempt failed; retrying",
			"delivery", r.Job.DeliveryID, "attempt", r.Attempt.N, "err", err)
		pause := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			pause.Stop()
			return o, err
		case <-pause.C:
		}
		wait = min(2*wait, 5*time.Second)
	}
}

// logOutcome logs an attempt: a success at debug level, a failure at info, a disabled
// endpoint and an address the guard refused (with the address) as warnings, a delivery that
// could not be signed as an error.
func (d *Dispatcher) logOutcome(ctx context.Context, j Job, a Attempt, o Outcome) {
	attrs := []any{"endpoint", j.EndpointID, "delivery", j.DeliveryID, "message", j.MessageID,
		"attempt", a.N, "kind", string(o.Kind), "status", string(o.Status)}
	if a.Response.StatusCode != 0 {
		attrs = append(attrs, "statusCode", a.Response.StatusCode)
	}
	if o.Error != "" {
		attrs = append(attrs, "error", o.Error)
	}
	var refused *RefusedAddressError
	if errors.As(a.Response.Err, &refused) {
		d.Log.WarnContext(ctx, "webhook attempt refused by the address guard", append(attrs, "address", refused.Addr.String(), "why", refused.Why)...)
	}
	switch {
	case o.Kind == KindSigning:
		d.Log.ErrorContext(ctx, "webhook not signed: no secret of the endpoint could be read (SECRETS_KEY?)", attrs...)
	case o.Status == Succeeded:
		d.Log.DebugContext(ctx, "webhook delivered", attrs...)
	case o.Disable != "":
		d.Log.WarnContext(ctx, "endpoint disabled", append(attrs, "reason", string(o.Disable))...)
	case o.Status == Pending:
		d.Log.InfoContext(ctx, "webhook attempt failed; attempting again", append(attrs, "nextAttemptAt", o.NextAttemptAt)...)
	default:
		d.Log.InfoContext(ctx, "webhook delivery failed for good", attrs...)
	}
}

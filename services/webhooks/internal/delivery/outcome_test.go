package delivery_test

import (
	"errors"
	"fmt"
	"net/http"
	"net/netip"
	"testing"
	"time"

	"github.com/podiumhq/podium/services/webhooks/internal/delivery"
)

func TestTheOutcomeOfAnAttempt(t *testing.T) {
	ptr := func(t time.Time) *time.Time { return &t }
	day := 24 * time.Hour
	type want struct {
		kind         delivery.Kind
		status       delivery.Status
		next         time.Time // zero unless pending
		failingSince *time.Time
		disable      delivery.DisabledReason
		err          string
	}
	for _, c := range []struct {
		name         string
		n            int
		startedAt    time.Time // t0 when zero
		res          delivery.Response
		failingSince *time.Time
		want         want
	}{
		{name: "200 succeeds and clears failing", n: 3, res: delivery.Response{StatusCode: 200}, failingSince: ptr(t0.Add(-day)),
			want: want{kind: delivery.KindSuccess, status: delivery.Succeeded}},
		{name: "204 succeeds", n: 1, res: delivery.Response{StatusCode: 204},
			want: want{kind: delivery.KindSuccess, status: delivery.Succeeded}},
		{name: "500 is retried after 5 s", n: 1, res: delivery.Response{StatusCode: 500},
			want: want{kind: delivery.KindStatus, status: delivery.Pending, next: t0.Add(5 * time.Second), failingSince: ptr(t0), err: "the endpoint answered 500"}},
		{name: "a 3xx is a failure, not followed", n: 2, res: delivery.Response{StatusCode: 302},
			want: want{kind: delivery.KindRedirect, status: delivery.Pending, next: t0.Add(5 * time.Minute), failingSince: ptr(t0), err: "redirect not followed (302)"}},
		{name: "404 is retried", n: 1, res: delivery.Response{StatusCode: 404},
			want: want{kind: delivery.KindStatus, status: delivery.Pending, next: t0.Add(5 * time.Second), failingSince: ptr(t0), err: "the endpoint answered 404"}},
		{name: "410 disables the endpoint", n: 1, res: delivery.Response{StatusCode: 410},
			want: want{kind: delivery.KindGone, status: delivery.Failed, failingSince: ptr(t0), disable: delivery.Gone, err: "the endpoint answered 410 Gone"}},
		{name: "a timeout is retried", n: 1, res: delivery.Response{Err: fmt.Errorf("%w after 15s", delivery.ErrTimeout)},
			want: want{kind: delivery.KindTimeout, status: delivery.Pending, next: t0.Add(5 * time.Second), failingSince: ptr(t0), err: "timed out after 15s"}},
		{name: "a refused connection is retried", n: 1, res: delivery.Response{Err: errors.New("connect: connection refused")},
			want: want{kind: delivery.KindNetwork, status: delivery.Pending, next: t0.Add(5 * time.Second), failingSince: ptr(t0), err: "connect: connection refused"}},
		{name: "a refused address is retried", n: 1, res: delivery.Response{Err: &delivery.RefusedAddressError{Addr: netip.MustParseAddr("10.0.0.1"), Why: "private"}},
			want: want{kind: delivery.KindRefused, status: delivery.Pending, next: t0.Add(5 * time.Second), failingSince: ptr(t0),
				err: delivery.RefusedReason}},
		{name: "429 waits for Retry-After seconds", n: 1, res: delivery.Response{StatusCode: 429, RetryAfter: "120"},
			want: want{kind: delivery.KindStatus, status: delivery.Pending, next: t0.Add(2 * time.Minute), failingSince: ptr(t0), err: "the endpoint answered 429"}},
		{name: "503 waits until Retry-After's date", n: 2, res: delivery.Response{StatusCode: 503, RetryAfter: t0.Add(10 * time.Minute).Format(http.TimeFormat)},
			want: want{kind: delivery.KindStatus, status: delivery.Pending, next: t0.Add(10 * time.Minute), failingSince: ptr(t0), err: "the endpoint answered 503"}},
		{name: "Retry-After never shortens the schedule's wait", n: 1, res: delivery.Response{StatusCode: 429, RetryAfter: "1"},
			want: want{kind: delivery.KindStatus, status: delivery.Pending, next: t0.Add(5 * time.Second), failingSince: ptr(t0), err: "the endpoint answered 429"}},
		{name: "Retry-After earlier than a later step's wait is not honoured", n: 4, res: delivery.Response{StatusCode: 503, RetryAfter: "600"},
			want: want{kind: delivery.KindStatus, status: delivery.Pending, next: t0.Add(2 * time.Hour), failingSince: ptr(t0), err: "the endpoint answered 503"}},
		{name: "a window's attempts are bounded", n: delivery.MaxAttemptsPerWindow, startedAt: t0.Add(time.Hour), res: delivery.Response{StatusCode: 429, RetryAfter: "60"},
			want: want{kind: delivery.KindStatus, status: delivery.Failed, failingSince: ptr(t0.Add(time.Hour)), err: "the endpoint answered 429"}},
		{name: "Retry-After is at most 24 h", n: 1, res: delivery.Response{StatusCode: 503, RetryAfter: "604800"},
			want: want{kind: delivery.KindStatus, status: delivery.Pending, next: t0.Add(day), failingSince: ptr(t0), err: "the endpoint answered 503"}},
		{name: "429 without Retry-After follows the schedule", n: 2, res: delivery.Response{StatusCode: 429},
			want: want{kind: delivery.KindStatus, status: delivery.Pending, next: t0.Add(5 * time.Minute), failingSince: ptr(t0), err: "the endpoint answered 429"}},
		{name: "Retry-After of another status is not honoured", n: 1, res: delivery.Response{StatusCode: 500, RetryAfter: "3600"},
			want: want{kind: delivery.KindStatus, status: delivery.Pending, next: t0.Add(5 * time.Second), failingSince: ptr(t0), err: "the endpoint answered 500"}},
		{name: "Retry-After stops at the end of the window", n: 8, startedAt: t0.Add(60 * time.Hour), res: delivery.Response{StatusCode: 429, RetryAfter: "86400"},
			want: want{kind: delivery.KindStatus, status: delivery.Pending, next: t0.Add(72 * time.Hour), failingSince: ptr(t0.Add(60 * time.Hour)), err: "the endpoint answered 429"}},
		{name: "the attempt at the end of the window is the last", n: 9, startedAt: t0.Add(72 * time.Hour), res: delivery.Response{StatusCode: 500},
			want: want{kind: delivery.KindStatus, status: delivery.Failed, failingSince: ptr(t0.Add(72 * time.Hour)), err: "the endpoint answered 500"}},
		{name: "failing for 4 days keeps retrying and its start", n: 1, res: delivery.Response{StatusCode: 500}, failingSince: ptr(t0.Add(-4 * day)),
			want: want{kind: delivery.KindStatus, status: delivery.Pending, next: t0.Add(5 * time.Second), failingSince: ptr(t0.Add(-4 * day)), err: "the endpoint answered 500"}},
		{name: "our own failure to sign neither counts against the endpoint nor ends the delivery", n: delivery.MaxAttemptsPerWindow, startedAt: t0.Add(80 * time.Hour),
			res: delivery.Response{Err: delivery.ErrUnsigned}, failingSince: nil,
			want: want{kind: delivery.KindSigning, status: delivery.Pending, next: t0.Add(80*time.Hour + delivery.UnsignedRetry), err: "no signing secret could be read"}},
		{name: "our own failure to sign keeps an endpoint's failing start", n: 1, res: delivery.Response{Err: delivery.ErrUnsigned}, failingSince: ptr(t0.Add(-6 * day)),
			want: want{kind: delivery.KindSigning, status: delivery.Pending, next: t0.Add(delivery.UnsignedRetry), failingSince: ptr(t0.Add(-6 * day)), err: "no signing secret could be read"}},
		{name: "failing for 5 days disables the endpoint", n: 1, res: delivery.Response{StatusCode: 500}, failingSince: ptr(t0.Add(-5 * day)),
			want: want{kind: delivery.KindStatus, status: delivery.Failed, failingSince: ptr(t0.Add(-5 * day)), disable: delivery.Failing, err: "the endpoint answered 500"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			started := c.startedAt
			if started.IsZero() {
				started = t0
			}
			a := delivery.Attempt{N: c.n, Step: c.n, First: t0, StartedAt: started, Response: c.res}
			o := delivery.Decide(a, c.failingSince, started, middle)
			w := c.want
			if o.Kind != w.kind || o.Status != w.status || !o.NextAttemptAt.Equal(w.next) || o.Disable != w.disable || o.Error != w.err || !o.At.Equal(started) {
				t.Fatalf("Decide = %+v, want %+v", o, w)
			}
			if (o.FailingSince == nil) != (w.failingSince == nil) || (o.FailingSince != nil && !o.FailingSince.Equal(*w.failingSince)) {
				t.Fatalf("failing since %v, want %v", o.FailingSince, w.failingSince)
			}
		})
	}
}

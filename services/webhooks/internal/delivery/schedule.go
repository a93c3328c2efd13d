package delivery

import (
	"net/http"
	"strconv"
	"strings"
	"time"
)

// retryDelays are the waits after the first attempts (after attempt n, retryDelays[n-1]);
// later attempts are dailyStep apart, while within RetryWindow of the first.
var retryDelays = []time.Duration{
	5 * time.Second, 5 * time.Minute, 30 * time.Minute, 2 * time.Hour, 5 * time.Hour, 10 * time.Hour, 10 * time.Hour,
}

const (
	dailyStep = 24 * time.Hour
	// RetryWindow is how long after its first attempt a delivery is attempted again; the last
	// attempt is at most at its end.
	RetryWindow = 72 * time.Hour
	// jitter is the part of each wait by which it varies, either way, so that the deliveries
	// that failed together are not retried together.
	jitter = 0.1
	// MaxAttemptsPerWindow bounds the attempts of one retry window, whatever a receiver's
	// Retry-After asks; the schedule alone makes at most 10.
	MaxAttemptsPerWindow = 12
)

// Bounds of a receiver's Retry-After.
const (
	minRetryAfter = time.Second
	maxRetryAfter = 24 * time.Hour
)

// NextAttempt returns when a delivery is attempted again after its attempt n (counted from
// 1) failed at now, the first having started at first, and false when it is not: the wait of
// the schedule, varied by ±10% with random (uniform in [0, 1)), and never beyond the retry
// window.
func NextAttempt(n int, first, now time.Time, random func() float64) (time.Time, bool) {
	wait := dailyStep
	if n >= 1 && n <= len(retryDelays) {
		wait = retryDelays[n-1]
	}
	return withinWindow(first, now, now.Add(jittered(wait, random())))
}

// withinWindow is next, or the end of the retry window of a delivery first attempted at first
// when next is beyond it, and false when now is past that end already.
func withinWindow(first, now, next time.Time) (time.Time, bool) {
	end := first.Add(RetryWindow)
	if !now.Before(end) {
		return time.Time{}, false
	}
	if next.After(end) {
		return end, true
	}
	return next, true
}

// jittered is wait varied by up to ±jitter of it, with r in [0, 1).
func jittered(wait time.Duration, r float64) time.Duration {
	return time.Duration(float64(wait) * (1 - jitter + 2*jitter*r))
}

// RetryAfter reads a Retry-After header at now, in seconds or as an HTTP date, bounded to
// 1 s..24 h, and false when there is none or it cannot be read.
func RetryAfter(header string, now time.Time) (time.Duration, bool) {
	header = strings.TrimSpace(header)
	if header == "" {
		return 0, false
	}
	var wait time.Duration
	if secs, err := strconv.ParseInt(header, 10, 64); err == nil {
		if secs < 0 {
			return 0, false
		}
		wait = time.Duration(min(secs, int64(maxRetryAfter/time.Second))) * time.Second
	} else if at, err := http.ParseTime(header); err == nil {
		wait = at.Sub(now)
	} else {
		return 0, false
	}
	return min(max(wait, minRetryAfter), maxRetryAfter), true
}

package faults

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/podiumhq/podium/system/stack"
)

// retrySchedule is the webhooks service's wait after each failed attempt: after attempt n,
// retrySchedule[n-1], then a day, each ±10%.
var retrySchedule = []time.Duration{
	5 * time.Second, 5 * time.Minute, 30 * time.Minute, 2 * time.Hour, 5 * time.Hour, 10 * time.Hour, 10 * time.Hour,
}

const (
	day = 24 * time.Hour
	// downPurchases are the purchases made while the receiver is down.
	downPurchases = 10
	// retryJitter is the part of a scheduled wait by which the service varies it either way.
	retryJitter = 0.1
)

// scheduled is the wait after attempt n.
func scheduled(n int) time.Duration {
	if n <= len(retrySchedule) {
		return retrySchedule[n-1]
	}
	return day
}

// TestWebhooksReceiverDownADay: the receiver answers 503 while purchases are made and for more
// than a day after; the test moves the webhooks clock on through the retry schedule (each step
// a little more than the longest jittered wait, then waits for every delivery's next attempt).
// Once it answers again, the next daily attempt delivers everything; every attempt came no
// sooner than its scheduled wait less the jitter, and the endpoint, failing for less than 5
// days, was never disabled.
func TestWebhooksReceiverDownADay(t *testing.T) {
	s := newShop(t, 0)
	var down atomic.Bool
	down.Store(true)
	r, e := startHookReceiver(t, s, stack.ReceiverOptions{Status: func(stack.Webhook) int {
		if down.Load() {
			return 503
		}
		return 200
	}})
	db := webhooksDB(t)
	var tl tally
	paid := buy(t, s, &tl, downPurchases)
	owed := len(hookTypes) * len(paid)
	waitAttempted(t, db, e.ID, owed, 1)
	var downFor time.Duration
	for n := 1; downFor < day; n++ {
		step := advancePast(t, scheduled(n))
		downFor += step
		waitAttempted(t, db, e.ID, owed, n+1)
	}
	down.Store(false)
	advancePast(t, day)
	c := settleHooks(t, r, paid, 2*time.Minute)
	waitSucceeded(t, db, e.ID, owed)
	reportHooks(t, "webhooks-down-a-day", c, &tl)
	attempts, early, sample := checkSchedule(t, db, e.ID)
	t.Logf("FAULTS %-20s receiver down %s on the webhooks clock; %d attempts, %d sooner than their scheduled wait less the jitter",
		"webhooks-down-a-day", downFor.Round(time.Minute), attempts, early)
	t.Logf("FAULTS %-20s one delivery's waits between attempts: %s", "webhooks-down-a-day", sample)
	if early > 0 {
		t.Errorf("%d attempts came sooner than the schedule allows", early)
	}
	var status string
	if err := db.QueryRow(t.Context(), `SELECT status FROM endpoints WHERE id = $1`, e.ID).Scan(&status); err != nil {
		t.Fatal(err)
	}
	if status != "enabled" {
		t.Errorf("the endpoint is %s after failing for a day, want enabled (it is disabled after 5 days)", status)
	}
}

// advancePast moves the webhooks clock a little beyond the longest jittered wait, so that every
// retry scheduled that far ahead of an attempt made by now comes due, and returns the step.
func advancePast(t *testing.T, wait time.Duration) time.Duration {
	t.Helper()
	step := time.Duration(float64(wait) * (1 + retryJitter + 0.05))
	if err := sys.AdvanceWebhooksClock(step); err != nil {
		t.Fatal(err)
	}
	return step
}

// checkSchedule reads every attempt of the endpoint's deliveries and counts them, and those
// that came sooner after the one before than the schedule's wait less the jitter; sample lists
// the waits of one delivery.
func checkSchedule(t *testing.T, db *pgx.Conn, endpointID string) (attempts, early int, sample string) {
	t.Helper()
	for _, starts := range attemptTimes(t, db, endpointID) {
		attempts += len(starts)
		var waits []string
		for n := 1; n < len(starts); n++ {
			waits = append(waits, starts[n].Sub(starts[n-1]).Round(time.Second).String())
			least := time.Duration(float64(scheduled(n)) * (1 - retryJitter))
			if gap := starts[n].Sub(starts[n-1]); gap < least {
				early++
				t.Logf("attempt %d came %s after attempt %d, want at least %s", n+1, gap, n, least)
			}
		}
		sample = strings.Join(waits, " ")
	}
	return attempts, early, sample
}

package faults

import (
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/system/stack"
)

// TestWebhooksDatabaseDown: the webhooks service's Postgres is unreachable for 60 s under a
// buyer's load. Nothing is stored meanwhile, so the consumer commits no offset of what it reads (an
// event is stored before its offset is committed); once the database is back the same processes
// (no restart) store and deliver everything produced during the outage, each once.
func TestWebhooksDatabaseDown(t *testing.T) {
	s := newShop(t, 0)
	r, _ := startHookReceiver(t, s, stack.ReceiverOptions{})
	db := webhooksDB(t)
	pids := instancePIDs("webhooks")
	l := startBuyers(t, s, webhookBuyers)
	testkit.Eventually(t, time.Minute, func() string {
		return unless(len(r.Webhooks()) >= 5, "%d webhooks delivered before the outage, want 5", len(r.Webhooks()))
	})
	if err := sys.Cut(stack.PostgresLink("webhooks")); err != nil {
		t.Fatal(err)
	}
	cut := time.Now()
	paidBefore := l.sent()
	stored := storedMessages(t, db, s.org)
	<-time.After(time.Until(cut.Add(databaseOutage)))
	paidDuring := l.sent() - paidBefore
	storedDuring := storedMessages(t, db, s.org) - stored
	if err := sys.Restore(stack.PostgresLink("webhooks")); err != nil {
		t.Fatal(err)
	}
	after := l.sent()
	testkit.Eventually(t, time.Minute, func() string {
		return unless(l.sent() >= after+5, "%d purchases paid after the database came back, want 5", l.sent()-after)
	})
	paid := l.stopLoad()
	c := settleHooks(t, r, paid, 2*time.Minute)
	reportHooks(t, "webhooks-db-60s", c, &l.tally)
	t.Logf("FAULTS %-20s purchases paid during the outage: %d, webhooks stored meanwhile: %d, all delivered after",
		"webhooks-db-60s", paidDuring, storedDuring)
	if paidDuring == 0 {
		t.Error("no purchase was paid during the outage")
	}
	if storedDuring != 0 {
		t.Errorf("%d webhooks stored with the database unreachable", storedDuring)
	}
	if now := instancePIDs("webhooks"); !equal(now, pids) {
		t.Errorf("webhooks was restarted (pids %v, then %v): it must recover by itself", pids, now)
	}
}

// storedMessages counts the webhooks stored for the organizer.
func storedMessages(t *testing.T, db *pgx.Conn, org string) int {
	t.Helper()
	var n int
	if err := db.QueryRow(t.Context(), `SELECT count(*) FROM messages WHERE organizer_id = $1`, org).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

package store_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/podiumhq/podium/services/webhooks/internal/delivery"
	"github.com/podiumhq/podium/services/webhooks/internal/delivery/deliverytest"
)

func perEndpoint(jobs []delivery.Job) map[string]int {
	n := map[string]int{}
	for _, j := range jobs {
		n[j.EndpointID]++
	}
	return n
}

func TestClaimCapsAnOrganizationAndTakesOrganizationsInTurns(t *testing.T) {
	db := deliverytest.NewDB(t)
	s := db.Store()
	var backlog []string
	for i := range 16 {
		e := db.EndpointOf("org_big", fmt.Sprintf("https://a%d.example.com/", i), now, delivery.NewSecret())
		backlog = append(backlog, e)
		for k := range 10 { // due for hours: older than anything of the other organization's
			db.Delivery(e, db.Message(`{}`, now), now.Add(-time.Duration(10*60-k)*time.Minute))
		}
	}
	small := db.EndpointOf("org_small", url, now, delivery.NewSecret())
	first := db.Delivery(small, db.Message(`{}`, now), now)

	c := delivery.Claim{Now: now, Max: 64, PerEndpoint: 4, PerOrganization: 16}
	jobs := claimCapped(t, s, c)
	got := perEndpoint(jobs)
	if got[small] != 1 || len(jobs) != 17 {
		t.Fatalf("claimed %d (%v), want the big organization's 16 and the small one's delivery", len(jobs), got)
	}
	// The big organization's attempts hang; the small one's next delivery still gets a worker.
	second := db.Delivery(small, db.Message(`{}`, now), now.Add(time.Second))
	jobs = claimCapped(t, s, delivery.Claim{Now: now.Add(2 * time.Second), Max: 64, PerEndpoint: 4, PerOrganization: 16})
	if len(jobs) != 1 || jobs[0].DeliveryID != second {
		t.Fatalf("with the big organization at its cap claimed %v, want only %s", ids(jobs), second)
	}
	_ = first

	// A pool smaller than the due work serves the organizations in turns, not oldest due first.
	db2 := deliverytest.NewDB(t)
	s2 := db2.Store()
	for i := range 4 {
		e := db2.EndpointOf("org_big", fmt.Sprintf("https://a%d.example.com/", i), now, delivery.NewSecret())
		for range 4 {
			db2.Delivery(e, db2.Message(`{}`, now), now.Add(-time.Hour))
		}
	}
	late := db2.Delivery(db2.EndpointOf("org_small", url, now, delivery.NewSecret()), db2.Message(`{}`, now), now)
	jobs = claimCapped(t, s2, delivery.Claim{Now: now, Max: 2, PerEndpoint: 4, PerOrganization: 16})
	if len(jobs) != 2 || (jobs[0].DeliveryID != late && jobs[1].DeliveryID != late) {
		t.Fatalf("a pool of 2 claimed %v, want one of each organization's", ids(jobs))
	}
	for _, e := range backlog {
		if got[e] != 1 {
			t.Fatalf("the big organization's 16 were %v, want one per endpoint (each endpoint's turn first)", got)
		}
	}
}

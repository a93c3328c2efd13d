package api_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/podiumhq/podium/services/registration/internal/domain"
	"github.com/podiumhq/podium/services/registration/internal/regtest"
)

// TestFiftyDevicesScanningTenTicketsCheckInEachOnce: 50 devices scan the same 10 tickets at
// once, each device every ticket (500 scans): exactly 10 are accepted, the 490 others are
// duplicates naming the accepted scan's device, the database holds 10 live check-ins and the
// outbox 10 ticket.checked_in events.
func TestFiftyDevicesScanningTenTicketsCheckInEachOnce(t *testing.T) {
	env := start(t, regtest.Options{MaxConns: 20})
	env.Clock.Set(scanAt)
	tickets := make([]string, 10)
	for i := range tickets {
		tickets[i] = ticketOf(create(t, env, createBody(fmt.Sprintf("Athlete %d", i))), 0)
	}
	door := env.Scanner(t, orgA, false)
	var mu sync.Mutex
	results := map[string]int{}
	firstBy := map[string]map[string]bool{} // ticket -> devices named as the first
	start := make(chan struct{})
	var wg sync.WaitGroup
	for d := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			device := fmt.Sprintf("gate-%02d", d)
			for i := range tickets {
				ticket := tickets[(i+d)%len(tickets)]
				r := env.Do(t, "POST", "/external/v1/organizer/check-ins", scan(ticket, fmt.Sprintf("%s-%s", device, ticket), device), door)
				if r.Status != 201 {
					t.Errorf("%s on %s: %d %s", device, ticket, r.Status, r.Raw)
					continue
				}
				mu.Lock()
				results[r.Body["result"].(string)]++
				if firstBy[ticket] == nil {
					firstBy[ticket] = map[string]bool{}
				}
				firstBy[ticket][checkInOf(r)["device"].(string)] = true
				mu.Unlock()
			}
		}()
	}
	close(start)
	wg.Wait()
	if results[domain.ScanAccepted] != 10 || results[domain.ScanDuplicate] != 490 {
		t.Fatalf("results %v, want 10 accepted and 490 duplicate", results)
	}
	for ticket, devices := range firstBy {
		if len(devices) != 1 {
			t.Errorf("ticket %s answered with the check-ins of %v, want one", ticket, devices)
		}
	}
	var live, events int
	if err := env.Pool.QueryRow(t.Context(), `SELECT count(*) FROM check_ins WHERE undone_at IS NULL`).Scan(&live); err != nil {
		t.Fatal(err)
	}
	if err := env.Pool.QueryRow(t.Context(), `SELECT count(*) FROM outbox WHERE headers->>'ce_type' = $1`, domain.EventTicketCheckedIn).Scan(&events); err != nil {
		t.Fatal(err)
	}
	if live != 10 || events != 10 {
		t.Fatalf("%d live check-ins and %d events, want 10 each", live, events)
	}
}

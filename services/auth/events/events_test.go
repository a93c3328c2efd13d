package events_test

import (
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/broker/brokertest"
	"github.com/podiumhq/podium/services/auth/events"
	"github.com/podiumhq/podium/services/auth/internal/domain"
)

// TestEveryEventAuthBuildsMatchesItsSchema builds each key event the way the store enqueues it
// (keys minted by domain.NewKey) and checks it against the published schemas.
func TestEveryEventAuthBuildsMatchesItsSchema(t *testing.T) {
	now := time.Date(2026, 3, 14, 10, 26, 53, 589_000_000, time.FixedZone("CET", 3600))
	org := domain.NewOrganizerID()
	var produced []brokertest.Produced
	for _, r := range []domain.KeyRequest{
		{Type: "publishable", Name: "Website", AllowedOrigins: []string{"https://crossfit-open.example.com", "http://localhost:5173"}},
		{Type: "secret", Name: "Backend", Scopes: []string{"events:read"}},
		{Type: "secret", Mode: "test", Name: "Sandbox", Scopes: []string{"events:read"}},
	} {
		k, _, err := domain.NewKey(org, r, now)
		if err != nil {
			t.Fatal(err)
		}
		produced = append(produced, brokertest.Produced{Topic: domain.KeysTopic, Type: domain.EventKeyCreated, Data: k.CreatedEvent()})
		k.Revoke(now.Add(time.Hour))
		produced = append(produced, brokertest.Produced{Topic: domain.KeysTopic, Type: domain.EventKeyRevoked, Data: k.RevokedEvent()})
	}
	brokertest.LoadContracts(t, events.Files).Check(t, produced...)
}

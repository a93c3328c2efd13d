package events_test

import (
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/broker/brokertest"
	"github.com/podiumhq/podium/services/registration/events"
	"github.com/podiumhq/podium/services/registration/internal/domain"
)

// TestEveryEventRegistrationBuildsMatchesItsSchema checks each event the store enqueues (the
// same domain types, marshalled as the outbox marshals them) against the published schemas,
// every release reason included.
func TestEveryEventRegistrationBuildsMatchesItsSchema(t *testing.T) {
	now := time.Date(2026, 5, 9, 20, 3, 21, 447_000_000, time.FixedZone("CEST", 2*3600))
	order, event := domain.NewOrderID(), "evt_2Hf9KqW4mZp7Tx1Lc8Rb"
	produced := []brokertest.Produced{
		{Topic: domain.PlacesTopic, Type: domain.EventPlacesChanged, Data: domain.PlacesChanged{
			EventID: event, CategoryID: "cat_8Wd3Pm6Yt1Qz5Rk9Nx2C", Confirmed: 37, Held: 4, Version: 52, OccurredAt: now,
		}},
		{Topic: domain.PlacesTopic, Type: domain.EventPlacesChanged, Data: domain.PlacesChanged{
			EventID: event, CategoryID: "cat_8Wd3Pm6Yt1Qz5Rk9Nx2C", Version: 1, OccurredAt: now,
		}},
		{Topic: domain.OrdersTopic, Type: domain.EventOrderCompleted, Data: domain.OrderCompletedEvent{
			OrderID: order, EventID: event, OrganizerID: "org_7Ks2NdQ9bYw4RmTx8Ve1", CompletedAt: now,
		}},
		{Topic: domain.OrdersTopic, Type: domain.EventOrderUnfulfilled, Data: domain.OrderUnfulfillableEvent{
			OrderID: order, Reason: domain.ReasonNoPlaceLeft, PaymentRef: "pi_3PqL8e2eZvKYlo2C1xT9mB4R",
		}},
	}
	for _, reason := range []string{domain.ReleaseExpired, domain.ReleaseFailed, domain.ReleaseCancelled} {
		produced = append(produced, brokertest.Produced{Topic: domain.OrdersTopic, Type: domain.EventOrderReleased, Data: domain.OrderReleasedEvent{
			OrderID: order, Reason: reason, ReleasedAt: now,
		}})
	}
	brokertest.LoadContracts(t, events.Files).Check(t, produced...)
}

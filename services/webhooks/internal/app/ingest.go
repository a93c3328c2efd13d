package app

import (
	"context"

	"github.com/podiumhq/podium/services/webhooks/internal/domain"
)

// Consumer names the service's consumer in the inbox.
const Consumer = "webhooks"

// Ingested is what became of a producer event.
type Ingested struct {
	// Stored is false for an event stored before (a redelivery).
	Stored     bool
	Deliveries int
}

// Ingest stores e, from the producer's message sourceID, as a message with its deliveries
// before it returns, and then wakes the dispatcher.
func (s *Service) Ingest(ctx context.Context, sourceID string, e domain.Event) (Ingested, error) {
	stored, n, err := s.repo.StoreEvent(ctx, Consumer, e, sourceID, s.clock.Now())
	if err != nil {
		return Ingested{}, err
	}
	if n > 0 {
		s.wake()
	}
	return Ingested{Stored: stored, Deliveries: n}, nil
}

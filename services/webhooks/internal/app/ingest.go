package app

import (
	"context"

	"github.com/podiumhq/podium/services/webhooks/internal/domain"
)

// Consumer names the service's consumer in the inbox.
const Consumer = "webhooks"

// Received is a producer's event and the id of its message (ce_id).
type Received struct {
	SourceID string
	Event    domain.Event
}

// Ingested is what became of producer events.
type Ingested struct {
	// Fresh counts the events not stored before (not redeliveries).
	Fresh      int
	Deliveries int
}

// Ingest stores events, in their order, as messages with their deliveries before it returns,
// and then wakes the dispatcher.
func (s *Service) Ingest(ctx context.Context, events []Received) (Ingested, error) {
	fresh, n, err := s.repo.StoreEvents(ctx, Consumer, events, s.clock.Now())
	if err != nil {
		return Ingested{}, err
	}
	if n > 0 {
		s.wake()
	}
	return Ingested{Fresh: fresh, Deliveries: n}, nil
}

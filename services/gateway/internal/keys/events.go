package keys

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/podiumhq/podium/libs/broker"
)

// Topic is where auth publishes key events.
const Topic = "auth.keys.v1"

// Event types the gateway acts on.
const (
	TypeRevoked = "podium.auth.key.revoked.v1"
	TypeCreated = "podium.auth.key.created.v1"
)

type revokedEvent struct {
	KeyHash   string    `json:"keyHash"`
	RevokedAt time.Time `json:"revokedAt"`
}

// HandleEvent applies one auth key event to the store; other event types are ignored.
func (s *Store) HandleEvent(_ context.Context, m broker.Message) error {
	switch m.Headers[broker.HeaderType] {
	case TypeRevoked:
		var e revokedEvent
		if err := json.Unmarshal(m.Value, &e); err != nil {
			return fmt.Errorf("keys: malformed %s event at offset %d: %w", TypeRevoked, m.Offset, err)
		}
		if e.KeyHash == "" {
			return fmt.Errorf("keys: %s event at offset %d has no keyHash", TypeRevoked, m.Offset)
		}
		s.Revoke(e.KeyHash, e.RevokedAt)
	case TypeCreated:
		s.KeysChanged()
	}
	return nil
}

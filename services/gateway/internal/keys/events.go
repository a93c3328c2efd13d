package keys

import (
	"context"
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

// HandleEvent applies one auth key event to the store; other event types are ignored. A
// revocation that does not decode or names no key, and an unknown version of a key event, are
// poison.
func (s *Store) HandleEvent(_ context.Context, m broker.Message) error {
	if ok, err := broker.Accepts(m, Topic, TypeRevoked, TypeCreated); !ok {
		return err
	}
	if m.Headers[broker.HeaderType] == TypeCreated {
		s.KeysChanged()
		return nil
	}
	var e revokedEvent
	if err := broker.Decode(m, &e); err != nil {
		return err
	}
	if e.KeyHash == "" {
		return broker.Poisonf("keys: %s event at offset %d has no keyHash", TypeRevoked, m.Offset)
	}
	s.Revoke(e.KeyHash, e.RevokedAt)
	return nil
}

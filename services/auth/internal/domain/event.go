package domain

import (
	"time"

	"github.com/podiumhq/podium/libs/apikey"
)

// KeysTopic is the Kafka topic of key events; the message key is the key id.
const KeysTopic = "auth.keys.v1"

// EventSource is the CloudEvents source of every event auth publishes.
const EventSource = "podium/auth"

// Event types published on KeysTopic.
const (
	EventKeyCreated = "podium.auth.key.created.v1"
	EventKeyRevoked = "podium.auth.key.revoked.v1"
)

// KeyCreated is the data of a podium.auth.key.created.v1 event.
type KeyCreated struct {
	KeyID          string    `json:"keyId"`
	OrganizerID    string    `json:"organizerId"`
	Type           KeyType   `json:"type"`
	AllowedOrigins []string  `json:"allowedOrigins"`
	Livemode       bool      `json:"livemode"` // false for a test key, as every event about test data
	CreatedAt      time.Time `json:"createdAt"`
}

// KeyRevoked is the data of a podium.auth.key.revoked.v1 event; gateways drop the key with
// this hash from their caches.
type KeyRevoked struct {
	KeyID       string    `json:"keyId"`
	KeyHash     string    `json:"keyHash"`
	OrganizerID string    `json:"organizerId"`
	Livemode    bool      `json:"livemode"` // false for a test key
	RevokedAt   time.Time `json:"revokedAt"`
}

// CreatedEvent returns the event announcing k.
func (k Key) CreatedEvent() KeyCreated {
	origins := k.AllowedOrigins
	if origins == nil {
		origins = []string{}
	}
	return KeyCreated{KeyID: k.ID, OrganizerID: k.OrganizerID, Type: k.Type, AllowedOrigins: origins, Livemode: k.Mode != apikey.Test, CreatedAt: k.CreatedAt.UTC()}
}

// RevokedEvent returns the event announcing k's revocation; k must be revoked.
func (k Key) RevokedEvent() KeyRevoked {
	return KeyRevoked{KeyID: k.ID, KeyHash: k.Hash, OrganizerID: k.OrganizerID, Livemode: k.Mode != apikey.Test, RevokedAt: k.RevokedAt.UTC()}
}

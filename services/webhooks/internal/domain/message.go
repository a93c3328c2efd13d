package domain

import (
	"encoding/json"
	"time"

	"github.com/podiumhq/podium/libs/ids"
)

// timestampLayout is the body's timestamp: RFC 3339 in UTC with milliseconds.
const timestampLayout = "2006-01-02T15:04:05.000Z07:00"

// Body is what a receiver gets (Standard Webhooks' {type, timestamp, data}).
type Body struct {
	Type      string   `json:"type"`
	Timestamp string   `json:"timestamp"`
	Data      BodyData `json:"data"`
}

// BodyData is a body's data: the object after the change, its id, its sequence and the mode.
type BodyData struct {
	ObjectID string          `json:"objectId"`
	Sequence int64           `json:"sequence"`
	Livemode bool            `json:"livemode"`
	Object   json.RawMessage `json:"object"`
}

// Message is one event as every endpoint receives it; Body is the exact JSON that is signed.
type Message struct {
	ID          string
	OrganizerID string
	Livemode    bool
	Type        string
	ObjectID    string
	Sequence    int64
	OccurredAt  time.Time
	Body        []byte
	// SourceID is the producer's message id (ce_id); empty for a ping.
	SourceID  string
	CreatedAt time.Time
}

// NewMessage returns the message of e, the object's sequence-th event, consumed at now from
// the producer's message sourceID.
func NewMessage(e Event, sequence int64, sourceID string, now time.Time) (Message, error) {
	m := Message{
		ID: ids.New(MessagePrefix), OrganizerID: e.OrganizerID, Livemode: e.Livemode, Type: e.Type,
		ObjectID: e.ObjectID, Sequence: sequence, OccurredAt: e.OccurredAt, SourceID: sourceID, CreatedAt: now,
	}
	var err error
	m.Body, err = json.Marshal(Body{Type: e.Type, Timestamp: e.OccurredAt.UTC().Format(timestampLayout),
		Data: BodyData{ObjectID: e.ObjectID, Sequence: sequence, Livemode: e.Livemode, Object: e.Object}})
	return m, err
}

// pingObject is the object of a ping.
type pingObject struct {
	EndpointID string `json:"endpointId"`
	Message    string `json:"message"`
}

// NewPing returns the ping message the test call sends to endpoint ep: sequence 0, its object
// the endpoint's id and a sentence.
func NewPing(ep Endpoint, now time.Time) (Message, error) {
	object, err := json.Marshal(pingObject{EndpointID: ep.ID, Message: "This is a test event from Podium."})
	if err != nil {
		return Message{}, err
	}
	return NewMessage(Event{Type: Ping, OrganizerID: ep.OrganizerID, Livemode: ep.Livemode, ObjectID: ep.ID, OccurredAt: now, Object: object}, 0, "", now)
}

package podium

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
)

// Event is a webhook's body, as the document's `webhooks` section describes each type.
type Event struct {
	// ID is the message's id (the webhook-id header), the same on every retry of it: the key
	// to handle each message once.
	ID        string             `json:"-"`
	Type      WebhookMessageType `json:"type"`
	Timestamp time.Time          `json:"timestamp"`
	Data      EventData          `json:"data"`
}

// EventData is an event's object and its place in the object's history.
type EventData struct {
	// ObjectID is the id of the object the event is about (ord_..., reg_..., evt_...).
	ObjectID string `json:"objectId"`
	// Sequence orders the events of one object: a smaller one than already handled is stale.
	Sequence int64 `json:"sequence"`
	// Livemode is false for the events of test data, sent to test endpoints only.
	Livemode bool `json:"livemode"`
	// Object is the object as the event left it, to decode by Type: an [Order] for the order.*
	// types, a [RegistrationRecord] for registration.*, an [EventSummary] for event.updated.
	Object json.RawMessage `json:"object"`
}

// VerifyWebhook checks a webhook's signature with the endpoint's signing secret (whsec_...)
// by the Standard Webhooks reference library, and decodes its body. It refuses a body or
// headers changed on the way, a signature of another secret and a timestamp more than five
// minutes from now (a replay). While a rotated secret's predecessor still signs, the message
// carries both signatures and either secret verifies it. Pass the body exactly as received.
func VerifyWebhook(secret string, headers http.Header, body []byte) (Event, error) {
	wh, err := standardwebhooks.NewWebhook(secret)
	if err != nil {
		return Event{}, fmt.Errorf("podium: webhook secret: %w", err)
	}
	if err := wh.Verify(body, headers); err != nil {
		return Event{}, fmt.Errorf("podium: webhook: %w", err)
	}
	var e Event
	if err := json.Unmarshal(body, &e); err != nil {
		return Event{}, fmt.Errorf("podium: webhook body: %w", err)
	}
	e.ID = headers.Get(standardwebhooks.HeaderWebhookID)
	return e, nil
}

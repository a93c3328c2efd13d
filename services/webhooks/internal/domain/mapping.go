package domain

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// The producers' topics the service consumes.
const (
	RegistrationsTopic = "registration.registrations.v1"
	OrdersTopic        = "registration.orders.v1"
	PaymentsTopic      = "checkout.payments.v1"
	CatalogTopic       = "catalog.events.v1"
	WaitlistTopic      = "registration.waitlist.v1"
)

// Topics are the consumed topics.
var Topics = []string{RegistrationsTopic, OrdersTopic, PaymentsTopic, CatalogTopic, WaitlistTopic}

// The producer event types (ce_type) that become webhooks.
const (
	SourceRegistrationCreated   = "podium.registration.registration.created.v1"
	SourceRegistrationUpdated   = "podium.registration.registration.updated.v1"
	SourceRegistrationCancelled = "podium.registration.registration.cancelled.v1"
	SourceOrderCompleted        = "podium.registration.order.completed.v1"
	SourceOrderReleased         = "podium.registration.order.released.v1"
	SourceOrderRefunded         = "podium.registration.order.refunded.v1"
	SourcePaymentFailed         = "podium.checkout.payment.failed.v1"
	SourceEventChanged          = "podium.catalog.event.changed.v1"
	SourcePricingChanged        = "podium.catalog.pricing.changed.v1"
	SourceTicketCheckedIn       = "podium.registration.ticket.checked_in.v1"
	SourceWaitlistOffered       = "podium.registration.waitlist.offered.v1"
	// SourceRegistrationTransferred is a ticket of a registration given to another athlete.
	SourceRegistrationTransferred = "podium.registration.registration.transferred.v1"
)

// source is how one producer type becomes a webhook: its type, the data member that names the
// object (read from data, else from the object), the time members it may carry (the first
// present is the change's time), and the condition it must meet.
type source struct {
	topic    string
	webhook  string
	idField  string
	times    []string
	accepted func(sourceData) bool
}

// sourceData is the union of the members the mapping reads.
type sourceData struct {
	OrganizerID string          `json:"organizerId"`
	Livemode    *bool           `json:"livemode"`
	Reason      string          `json:"reason"`
	Object      json.RawMessage `json:"object"`
}

func always(sourceData) bool { return true }

func reason(want string) func(sourceData) bool {
	return func(d sourceData) bool { return d.Reason == want }
}

// Sources maps each producer type to its webhook (see the table in docs/adr/0021).
var sources = map[string]source{
	SourceRegistrationCreated:   {RegistrationsTopic, RegistrationCreated, "registrationId", []string{"occurredAt", "createdAt"}, always},
	SourceRegistrationUpdated:   {RegistrationsTopic, RegistrationUpdated, "registrationId", []string{"occurredAt", "updatedAt"}, always},
	SourceRegistrationCancelled: {RegistrationsTopic, RegistrationCancelled, "registrationId", []string{"occurredAt", "cancelledAt"}, always},
	SourceOrderCompleted:        {OrdersTopic, OrderCompleted, "orderId", []string{"occurredAt", "completedAt"}, always},
	SourceOrderReleased:         {OrdersTopic, OrderFailed, "orderId", []string{"occurredAt", "releasedAt"}, reason("FAILED")},
	SourceOrderRefunded:         {OrdersTopic, OrderRefunded, "orderId", []string{"occurredAt", "refundedAt"}, always},
	SourcePaymentFailed:         {PaymentsTopic, CheckoutSessionExpired, "sessionId", []string{"occurredAt", "failedAt"}, reason("EXPIRED")},
	// The catalog leaves out the object of an event too large for a message: such a change
	// is skipped like the ones published before the webhook fields, logged and counted.
	SourceEventChanged: {CatalogTopic, EventUpdated, "eventId", []string{"occurredAt", "changedAt"}, always},
	// A pricing card's object is its category: each card has its own sequence.
	SourcePricingChanged: {CatalogTopic, PricingChanged, "categoryId", []string{"occurredAt", "changedAt"}, always},
	// A check-in is its own object: a ticket checked in again after an undo is another one.
	SourceTicketCheckedIn: {RegistrationsTopic, TicketCheckedIn, "checkInId", []string{"occurredAt"}, always},
	// A waitlist entry's object is the entry (its secret offer link is never in the event).
	SourceWaitlistOffered: {WaitlistTopic, WaitlistOffered, "id", []string{"occurredAt", "offeredAt"}, always},
	// The object is the registration after the transfer; the ticket's last transfer is it.
	SourceRegistrationTransferred: {RegistrationsTopic, RegistrationTransferred, "registrationId", []string{"occurredAt"}, always},
}

// SourceTypes returns the producer types of topic that may become webhooks.
func SourceTypes(topic string) []string {
	var out []string
	for typ, s := range sources {
		if s.topic == topic {
			out = append(out, typ)
		}
	}
	return out
}

// Event is a producer's change as a webhook: what the message is built from.
type Event struct {
	Type        string
	OrganizerID string
	Livemode    bool
	ObjectID    string
	OccurredAt  time.Time
	// Object is the object as the organizer API shows it after the change.
	Object json.RawMessage
}

// ErrIncomplete means a producer event of a webhook type lacks what every webhook needs
// (an object, the object's id, the time of the change): it can never be delivered.
var ErrIncomplete = errors.New("the event lacks what a webhook needs")

// ErrNoWebhookFields means a producer event of a webhook type lacks organizerId or object
// (published before its producer sent them, or an event's detail too large for a message): it
// has nothing to deliver.
var ErrNoWebhookFields = errors.New("the event predates the webhook fields (organizerId, object)")

// Map turns the data of a producer event of type typ into the webhook it is; ok is false when
// the event is not one (another type, or a condition of the mapping not met). An event of a
// webhook type without organizerId or object is ErrNoWebhookFields; one that is undecodable or
// otherwise incomplete is an error (ErrIncomplete).
func Map(typ string, data []byte) (e Event, ok bool, err error) {
	s, found := sources[typ]
	if !found {
		return Event{}, false, nil
	}
	var d sourceData
	if err := json.Unmarshal(data, &d); err != nil {
		return Event{}, false, fmt.Errorf("%s: %w", typ, err)
	}
	if !s.accepted(d) {
		return Event{}, false, nil
	}
	if d.OrganizerID == "" || len(d.Object) == 0 || string(d.Object) == "null" {
		return Event{}, false, fmt.Errorf("%s: %w", typ, ErrNoWebhookFields)
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(data, &members); err != nil {
		return Event{}, false, fmt.Errorf("%s: %w", typ, err)
	}
	e = Event{Type: s.webhook, OrganizerID: d.OrganizerID, Livemode: d.Livemode == nil || *d.Livemode, Object: d.Object}
	e.ObjectID = objectID(members, d.Object, s.idField)
	e.OccurredAt = occurredAt(members, s.times)
	var missing []string
	for _, m := range []struct {
		name   string
		absent bool
	}{{"object", !present(d.Object)}, {s.idField, e.ObjectID == ""}, {s.times[0], e.OccurredAt.IsZero()}} {
		if m.absent {
			missing = append(missing, m.name)
		}
	}
	if len(missing) > 0 {
		return Event{}, false, fmt.Errorf("%s: %w: no valid %v", typ, ErrIncomplete, missing)
	}
	return e, true, nil
}

// present reports whether raw is a JSON object.
func present(raw json.RawMessage) bool {
	return len(raw) > 0 && bytes.HasPrefix(bytes.TrimSpace(raw), []byte("{"))
}

// objectID reads the string member field of data, else of the object.
func objectID(data map[string]json.RawMessage, object json.RawMessage, field string) string {
	if id := stringMember(data, field); id != "" {
		return id
	}
	var members map[string]json.RawMessage
	if json.Unmarshal(object, &members) != nil {
		return ""
	}
	return stringMember(members, field)
}

func stringMember(m map[string]json.RawMessage, field string) string {
	var s string
	if json.Unmarshal(m[field], &s) != nil {
		return ""
	}
	return s
}

// occurredAt reads the first of fields data has as an RFC 3339 time, in UTC.
func occurredAt(data map[string]json.RawMessage, fields []string) time.Time {
	for _, f := range fields {
		raw, ok := data[f]
		if !ok {
			continue
		}
		var t time.Time
		if json.Unmarshal(raw, &t) == nil {
			return t.UTC()
		}
	}
	return time.Time{}
}

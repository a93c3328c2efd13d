package events

import (
	"context"
	"testing"

	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/broker/brokertest"
	"github.com/podiumhq/podium/libs/testkit"
	registrationevents "github.com/podiumhq/podium/services/registration/events"
	"github.com/podiumhq/podium/services/webhooks/internal/app"
	"github.com/podiumhq/podium/services/webhooks/internal/domain"
)

type recorder struct{ events []domain.Event }

func (r *recorder) Ingest(_ context.Context, evs []app.Received) (app.Ingested, error) {
	for _, e := range evs {
		r.events = append(r.events, e.Event)
	}
	return app.Ingested{Fresh: len(evs)}, nil
}

func message(topic, typ, data string) broker.Message {
	return broker.Message{Topic: topic, Value: []byte(data), Headers: map[string]string{broker.HeaderID: "m1", broker.HeaderType: typ}}
}

const order = `{"orderId":"ord_1","organizerId":"org_1","completedAt":"2026-05-09T18:03:21Z","reason":"FAILED","object":{"orderId":"ord_1"}}`

func TestWhatIsStoredSkippedOrPoison(t *testing.T) {
	for name, c := range map[string]struct {
		m      broker.Message
		stored int
		poison bool
	}{
		"completed":                 {message(domain.OrdersTopic, domain.SourceOrderCompleted, order), 1, false},
		"next version":              {brokertest.NextVersion(t, message(domain.OrdersTopic, domain.SourceOrderCompleted, order)), 0, true},
		"on another topic":          {message(domain.PaymentsTopic, domain.SourceOrderCompleted, order), 0, true},
		"another order event":       {message(domain.OrdersTopic, "podium.registration.order.unfulfillable.v1", order), 0, false},
		"places":                    {message("registration.places.v1", "podium.registration.places.changed.v2", `{}`), 0, false},
		"before the webhook fields": {message(domain.OrdersTopic, domain.SourceOrderCompleted, `{"orderId":"ord_1","completedAt":"2026-05-09T18:03:21Z"}`), 0, false},
		"incomplete":                {message(domain.OrdersTopic, domain.SourceOrderCompleted, `{"orderId":"ord_1","organizerId":"org_1","object":{}}`), 0, true},
		"undecodable":               {message(domain.OrdersTopic, domain.SourceOrderCompleted, `{`), 0, true},
		"expired release":           {message(domain.OrdersTopic, domain.SourceOrderReleased, `{"orderId":"ord_1","reason":"EXPIRED"}`), 0, false},
		"no id":                     {broker.Message{Topic: domain.OrdersTopic, Value: []byte(order), Headers: map[string]string{broker.HeaderType: domain.SourceOrderCompleted}}, 0, true},
		"catalog event changed":     {message(domain.CatalogTopic, domain.SourceEventChanged, `{"eventId":"evt_1","organizerId":"org_1","version":2}`), 0, false},
	} {
		t.Run(name, func(t *testing.T) {
			r := &recorder{}
			err := (&Consumer{Service: r, Log: testkit.Logger(t)}).handle(t.Context(), []broker.Message{c.m})
			if broker.IsPoison(err) != c.poison || (!c.poison && err != nil) || len(r.events) != c.stored {
				t.Fatalf("err %v, stored %d; want poison %v, stored %d", err, len(r.events), c.poison, c.stored)
			}
		})
	}
}

// Registration's published order events are read (each a webhook, or skipped while
// registration does not carry the webhook fields), never refused for their type.
func TestRegistrationsOrderEventsAreAccepted(t *testing.T) {
	contracts := brokertest.LoadContracts(t, registrationevents.Files)
	for _, typ := range []string{domain.SourceOrderCompleted, domain.SourceOrderReleased} {
		m := contracts.Example(t, typ)
		if m.Topic != domain.OrdersTopic {
			t.Fatalf("%s is published on %s", typ, m.Topic)
		}
		ok, err := broker.Accepts(m, domain.OrdersTopic, domain.SourceTypes(domain.OrdersTopic)...)
		if !ok || err != nil {
			t.Fatalf("%s: %v %v", typ, ok, err)
		}
	}
}

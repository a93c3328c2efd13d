package events

import (
	"context"
	"errors"
	"testing"

	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// recorder keeps the events it is handed and fails with err.
type recorder struct {
	events []domain.OrderEvent
	err    error
}

func (r *recorder) HandleOrderEvent(_ context.Context, _ string, e domain.OrderEvent) error {
	r.events = append(r.events, e)
	return r.err
}

func message(typ, id, value string) broker.Message {
	return broker.Message{Topic: domain.OrdersTopic, Value: []byte(value), Headers: map[string]string{broker.HeaderType: typ, broker.HeaderID: id}}
}

func TestOrderEventsAreClassified(t *testing.T) {
	for name, c := range map[string]struct {
		msg     broker.Message
		handled bool
		poison  bool
	}{
		"completed":             {message(domain.EventOrderCompleted, "m1", `{"orderId":"ord_1"}`), true, false},
		"another order event":   {message("podium.registration.order.created.v1", "m1", `{"orderId":"ord_1"}`), false, false},
		"an unknown version":    {message("podium.registration.order.completed.v2", "m1", `{"orderId":"ord_1"}`), false, true},
		"undecodable":           {message(domain.EventOrderReleased, "m1", `{"orderId":`), false, true},
		"no orderId":            {message(domain.EventOrderUnfulfillable, "m1", `{"reason":"NO_PLACE"}`), false, true},
		"no message id":         {message(domain.EventOrderCompleted, "", `{"orderId":"ord_1"}`), false, true},
		"no type":               {message("", "m1", `{"orderId":"ord_1"}`), false, true},
		"orderId of wrong type": {message(domain.EventOrderCompleted, "m1", `{"orderId":7}`), false, true},
	} {
		t.Run(name, func(t *testing.T) {
			r := &recorder{}
			err := (&OrdersConsumer{Handler: r}).handle(t.Context(), c.msg)
			if broker.IsPoison(err) != c.poison || (err != nil) != c.poison || (len(r.events) == 1) != c.handled {
				t.Fatalf("err %v, handled %v; want poison %v, handled %v", err, r.events, c.poison, c.handled)
			}
		})
	}
	r := &recorder{err: errors.New("database unreachable")}
	err := (&OrdersConsumer{Handler: r}).handle(t.Context(), message(domain.EventOrderCompleted, "m1", `{"orderId":"ord_1"}`))
	if err == nil || broker.IsPoison(err) {
		t.Fatalf("a failure of the database is %v, want a transient error", err)
	}
}

package events_test

import (
	"testing"

	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/registration/internal/adapters/events"
	"github.com/podiumhq/podium/services/registration/internal/domain"
)

// TestPaymentMessagesThatCanNeverBeAppliedArePoison: each is refused before the use case runs
// (the handler has none here); a message of another type is ignored. Applying a valid payment
// is TestPaymentsConsumer's (internal/api).
func TestPaymentMessagesThatCanNeverBeAppliedArePoison(t *testing.T) {
	h := events.Handler(nil, testkit.Discard())
	msg := func(typ, id, value string) broker.Message {
		return broker.Message{Topic: domain.PaymentsTopic, Value: []byte(value), Headers: map[string]string{broker.HeaderType: typ, broker.HeaderID: id}}
	}
	for name, c := range map[string]struct {
		msg    broker.Message
		poison bool
	}{
		"another type":        {msg("podium.checkout.session.created.v1", "m1", `{}`), false},
		"an unknown version":  {msg("podium.checkout.payment.succeeded.v2", "m1", `{"orderId":"ord_1"}`), true},
		"undecodable":         {msg(domain.EventPaymentSucceeded, "m1", `{"orderId"`), true},
		"no orderId":          {msg(domain.EventPaymentFailed, "m1", `{"reason":"EXPIRED"}`), true},
		"no message id":       {msg(domain.EventPaymentRefunded, "", `{"orderId":"ord_1"}`), true},
		"no type":             {msg("", "m1", `{"orderId":"ord_1"}`), true},
		"amount of bad type":  {msg(domain.EventPaymentSucceeded, "m1", `{"orderId":"ord_1","amount":"lots"}`), true},
		"orderId of bad type": {msg(domain.EventPaymentSucceeded, "m1", `{"orderId":["ord_1"]}`), true},
	} {
		t.Run(name, func(t *testing.T) {
			err := h(t.Context(), c.msg)
			if broker.IsPoison(err) != c.poison || (err != nil) != c.poison {
				t.Fatalf("err %v, want poison %v", err, c.poison)
			}
		})
	}
}

// TestPaymentModeIsRead: a payment event names its mode; one without livemode is live.
func TestPaymentModeIsRead(t *testing.T) {
	for value, test := range map[string]bool{
		`{"orderId":"ord_1","livemode":false}`: true,
		`{"orderId":"ord_1","livemode":true}`:  false,
		`{"orderId":"ord_1"}`:                  false,
	} {
		m := broker.Message{Topic: domain.PaymentsTopic, Value: []byte(value),
			Headers: map[string]string{broker.HeaderType: domain.EventPaymentSucceeded, broker.HeaderID: "m1"}}
		p, ok, err := events.DecodePayment(m)
		if !ok || err != nil || p.Test != test {
			t.Errorf("%s: %+v %v %v, want test %v", value, p, ok, err, test)
		}
	}
}

package broker_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/podiumhq/podium/libs/broker"
)

func TestAcceptsTellsTheConsumersTypesFromOthersAndUnknownVersions(t *testing.T) {
	handles := []string{"podium.shop.order.paid.v1", "podium.shop.order.failed.v2"}
	for typ, want := range map[string]string{
		"podium.shop.order.paid.v1":     "accepted",
		"podium.shop.order.failed.v2":   "accepted",
		"podium.shop.order.paid.v2":     "poison",
		"podium.shop.order.failed.v1":   "poison",
		"":                              "poison",
		"podium.shop.order.created.v1":  "ignored",
		"podium.shop.order.paid":        "ignored",
		"podium.shop.order.paid.vnext":  "ignored",
		"podium.shop.order.paid.v1.bak": "ignored",
	} {
		ok, err := broker.Accepts(broker.Message{Topic: "t", Headers: map[string]string{broker.HeaderType: typ}}, "t", handles...)
		got := "ignored"
		switch {
		case ok && err == nil:
			got = "accepted"
		case !ok && broker.IsPoison(err):
			got = "poison"
		case err != nil:
			got = err.Error()
		}
		if got != want {
			t.Errorf("type %q: %s, want %s", typ, got, want)
		}
	}
}

// TestAcceptsAnEventOnlyFromItsProducersTopic: an event of a type the consumer handles, or of
// its family, found on any other topic (one other principals may write) is poison, never
// applied; other types there are not the consumer's concern.
func TestAcceptsAnEventOnlyFromItsProducersTopic(t *testing.T) {
	const paid = "podium.shop.order.paid.v1"
	for typ, want := range map[string]string{
		paid:                           "poison: podium.shop.order.paid.v1 at shop.refunds.v1/0/4: accepted only from shop.payments.v1",
		"podium.shop.order.paid.v2":    "poison: podium.shop.order.paid.v2 at shop.refunds.v1/0/4: accepted only from shop.payments.v1",
		"podium.shop.order.created.v1": "ignored",
	} {
		ok, err := broker.Accepts(broker.Message{Topic: "shop.refunds.v1", Offset: 4, Headers: map[string]string{broker.HeaderType: typ}}, "shop.payments.v1", paid)
		got := "ignored"
		switch {
		case ok:
			got = "accepted"
		case broker.IsPoison(err):
			got = "poison: " + errors.Unwrap(err).Error()
		case err != nil:
			got = err.Error()
		}
		if got != want {
			t.Errorf("type %q: %s, want %s", typ, got, want)
		}
	}
}

func TestPoisonWrapsAndIsFoundThroughWrapping(t *testing.T) {
	cause := errors.New("no orderId")
	err := fmt.Errorf("apply: %w", broker.Poison(cause))
	var p *broker.PoisonError
	if !broker.IsPoison(err) || !errors.As(err, &p) || !errors.Is(err, cause) || p.Error() != "poison message: no orderId" {
		t.Fatalf("wrapped poison %v", err)
	}
	if broker.Poison(nil) != nil || broker.IsPoison(cause) {
		t.Fatal("Poison(nil) is an error, or a plain error is poison")
	}
	m := broker.Message{Topic: "orders.v1", Partition: 2, Offset: 7, Value: []byte(`{"n":`), Headers: map[string]string{broker.HeaderType: "podium.x.v1"}}
	var v struct{ N int }
	if err := broker.Decode(m, &v); !broker.IsPoison(err) || err.Error() != "poison message: podium.x.v1 at orders.v1/2/7: undecodable data: unexpected end of JSON input" {
		t.Fatalf("Decode: %v", err)
	}
	if _, err := broker.RequireID(m); !broker.IsPoison(err) {
		t.Fatalf("RequireID without ce_id: %v", err)
	}
	m.Headers[broker.HeaderID] = "m1"
	if id, err := broker.RequireID(m); id != "m1" || err != nil {
		t.Fatalf("RequireID: %q %v", id, err)
	}
}

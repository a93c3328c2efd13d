package domain_test

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

var now = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

func checkout(state domain.State) domain.Checkout {
	return domain.Checkout{ID: "chk_1", Livemode: true, State: state, Currency: "EUR", Total: 5875, OrderID: "ord_1", SessionID: "cs_1",
		Promocode: "P", PromoState: domain.PromoReserved}
}

func pay(kind domain.PaymentEventKind, paid bool) domain.PaymentEvent {
	return domain.PaymentEvent{ID: "evt", Kind: kind, SessionID: "cs_1", Paid: paid, PaymentIntent: "pi_1", AmountTotal: ptr(int64(5875))}
}

// TestPaymentTransitions covers every state against every webhook: the state it leads to and
// the event it publishes.
func TestPaymentTransitions(t *testing.T) {
	completed, completedUnpaid := pay(domain.PaymentCompleted, true), pay(domain.PaymentCompleted, false)
	succeeded, failed, expired := pay(domain.PaymentAsyncSucceeded, true), pay(domain.PaymentAsyncFailed, false), pay(domain.PaymentExpired, false)
	type want struct {
		state domain.State
		event string
	}
	cases := map[domain.State]map[string]want{
		domain.StateHeld: {"completed": {domain.StatePaid, domain.EventPaymentSucceeded}, "unpaid": {domain.StateProcessing, ""},
			"succeeded": {domain.StatePaid, domain.EventPaymentSucceeded}, "failed": {domain.StatePaymentFailed, domain.EventPaymentFailed}, "expired": {domain.StateExpired, domain.EventPaymentFailed}},
		domain.StateOpen: {"completed": {domain.StatePaid, domain.EventPaymentSucceeded}, "unpaid": {domain.StateProcessing, ""},
			"succeeded": {domain.StatePaid, domain.EventPaymentSucceeded}, "failed": {domain.StatePaymentFailed, domain.EventPaymentFailed}, "expired": {domain.StateExpired, domain.EventPaymentFailed}},
		domain.StateProcessing: {"completed": {domain.StatePaid, domain.EventPaymentSucceeded}, "unpaid": {domain.StateProcessing, ""},
			"succeeded": {domain.StatePaid, domain.EventPaymentSucceeded}, "failed": {domain.StatePaymentFailed, domain.EventPaymentFailed}, "expired": {domain.StateExpired, domain.EventPaymentFailed}},
		domain.StatePaid: {"completed": {domain.StatePaid, ""}, "unpaid": {domain.StatePaid, ""},
			"succeeded": {domain.StatePaid, ""}, "failed": {domain.StatePaid, ""}, "expired": {domain.StatePaid, ""}},
		domain.StateCompleted: {"completed": {domain.StateCompleted, ""}, "unpaid": {domain.StateCompleted, ""},
			"succeeded": {domain.StateCompleted, ""}, "failed": {domain.StateCompleted, ""}, "expired": {domain.StateCompleted, ""}},
		domain.StateExpired: {"completed": {domain.StatePaid, domain.EventPaymentSucceeded}, "unpaid": {domain.StateExpired, ""},
			"succeeded": {domain.StatePaid, domain.EventPaymentSucceeded}, "failed": {domain.StateExpired, ""}, "expired": {domain.StateExpired, ""}},
		domain.StatePaymentFailed: {"completed": {domain.StatePaid, domain.EventPaymentSucceeded}, "unpaid": {domain.StatePaymentFailed, ""},
			"succeeded": {domain.StatePaid, domain.EventPaymentSucceeded}, "failed": {domain.StatePaymentFailed, ""}, "expired": {domain.StatePaymentFailed, ""}},
		domain.StateReleased: {"completed": {domain.StatePaid, domain.EventPaymentSucceeded}, "unpaid": {domain.StateReleased, ""},
			"succeeded": {domain.StatePaid, domain.EventPaymentSucceeded}, "failed": {domain.StateReleased, ""}, "expired": {domain.StateReleased, ""}},
		domain.StateRefundPending: {"completed": {domain.StateRefundPending, ""}, "unpaid": {domain.StateRefundPending, ""},
			"succeeded": {domain.StateRefundPending, ""}, "failed": {domain.StateRefundPending, ""}, "expired": {domain.StateRefundPending, ""}},
		domain.StateRefundFailed: {"completed": {domain.StateRefundFailed, ""}, "unpaid": {domain.StateRefundFailed, ""},
			"succeeded": {domain.StateRefundFailed, ""}, "failed": {domain.StateRefundFailed, ""}, "expired": {domain.StateRefundFailed, ""}},
		domain.StateRefundedNoPlace: {"completed": {domain.StateRefundedNoPlace, ""}, "unpaid": {domain.StateRefundedNoPlace, ""},
			"succeeded": {domain.StateRefundedNoPlace, ""}, "failed": {domain.StateRefundedNoPlace, ""}, "expired": {domain.StateRefundedNoPlace, ""}},
		domain.StateRefundedNoPromocode: {"completed": {domain.StateRefundedNoPromocode, ""}, "unpaid": {domain.StateRefundedNoPromocode, ""},
			"succeeded": {domain.StateRefundedNoPromocode, ""}, "failed": {domain.StateRefundedNoPromocode, ""}, "expired": {domain.StateRefundedNoPromocode, ""}},
	}
	events := map[string]domain.PaymentEvent{"completed": completed, "unpaid": completedUnpaid, "succeeded": succeeded, "failed": failed, "expired": expired}
	for from, byEvent := range cases {
		for name, w := range byEvent {
			c := checkout(from)
			msgs := c.ApplyPayment(events[name], now)
			got := ""
			if len(msgs) == 1 {
				got = msgs[0].Type
			}
			if c.State != w.state || got != w.event || len(msgs) > 1 {
				t.Errorf("%s + %s: %s publishing %q, want %s publishing %q", from, name, c.State, got, w.state, w.event)
			}
			for _, m := range msgs {
				if m.Key != "ord_1" || m.Topic != domain.PaymentsTopic {
					t.Errorf("%s + %s: message %+v", from, name, m)
				}
			}
		}
	}
}

func TestPaymentEventsData(t *testing.T) {
	c := checkout(domain.StateOpen)
	msgs := c.ApplyPayment(pay(domain.PaymentCompleted, true), now)
	want := domain.PaymentSucceeded{OrderID: "ord_1", SessionID: "cs_1", PaymentRef: "pi_1", Amount: 5875, Currency: "EUR", PaidAt: now, Livemode: true}
	if msgs[0].Data != want || c.PaymentIntent != "pi_1" || *c.AmountPaid != 5875 {
		t.Fatalf("succeeded %+v, checkout %+v", msgs[0].Data, c)
	}
	c = checkout(domain.StateOpen)
	msgs = c.ApplyPayment(pay(domain.PaymentExpired, false), now)
	if got := msgs[0].Data.(domain.PaymentFailed); got.OrderID != "ord_1" || got.SessionID != "cs_1" || got.Reason != domain.FailureExpired {
		t.Fatalf("failed %+v", got)
	}
	c = checkout(domain.StateOpen)
	c.OrderID = ""
	if msgs := c.ApplyPayment(pay(domain.PaymentCompleted, true), now); msgs != nil || c.State != domain.StateOpen {
		t.Fatal("a payment without an order published an event")
	}
}

func TestPromocodeUseFollowsThePayment(t *testing.T) {
	c := checkout(domain.StateOpen)
	c.ApplyPayment(pay(domain.PaymentExpired, false), now)
	if c.PromoState != domain.PromoReleased {
		t.Fatalf("expiry kept the promocode use: %s", c.PromoState)
	}
	c.ApplyPayment(pay(domain.PaymentAsyncSucceeded, true), now)
	if c.PromoState != domain.PromoReserved {
		t.Fatalf("a late payment did not count the promocode again: %s", c.PromoState)
	}
	if c.RefundNoPlace(domain.OrderEvent{PaymentRef: "pi_1"}, now); c.PromoState != domain.PromoReleased ||
		c.State != domain.StateRefundPending || !c.RefundPending() || c.RefundReason != domain.ReasonNoPlaceLeft {
		t.Fatalf("refund decided: %+v", c)
	}
	msgs := c.Refunded("re_1", now)
	if c.State != domain.StateRefundedNoPlace || c.RefundPending() || c.RefundID != "re_1" {
		t.Fatalf("refund: %+v", c)
	}
	if len(msgs) != 1 || msgs[0].Type != domain.EventPaymentRefunded || msgs[0].Key != c.OrderID {
		t.Fatalf("refund messages: %+v", msgs)
	}
	if r := msgs[0].Data.(domain.PaymentRefunded); r.RefundID != "re_1" || r.OrderID != c.OrderID || r.Amount != *c.AmountPaid {
		t.Fatalf("refund message: %+v", r)
	}
	f := checkout(domain.StateHeld)
	f.Failed(now)
	if f.State != domain.StateFailed || f.PromoState != domain.PromoReleased {
		t.Fatalf("failed: %+v", f)
	}
	n := checkout(domain.StateOpen)
	n.PromoState = domain.PromoNone
	n.ApplyPayment(pay(domain.PaymentExpired, false), now)
	if n.PromoState != domain.PromoNone {
		t.Fatal("a checkout without a promocode got one")
	}
}

// TestALatePaymentWithoutAPromocodeUseIsRefunded: a payment after the hold lapsed counts the
// checkout among its code's uses again, unless the use is gone: then the payment is refunded,
// the use stays given back, and registration is told the order was refunded.
func TestALatePaymentWithoutAPromocodeUseIsRefunded(t *testing.T) {
	c := checkout(domain.StateOpen)
	c.HoldExpiresAt = now.Add(-time.Minute)
	if c.HoldsPromocodeUse(now) {
		t.Fatal("a lapsed hold counts its promocode use")
	}
	paid := c
	paid.ApplyPayment(pay(domain.PaymentCompleted, true), now)
	if !paid.HoldsPromocodeUse(now) {
		t.Fatal("a late payment does not count its promocode use again")
	}
	e := pay(domain.PaymentCompleted, true)
	e.PaymentIntent = "pi_late"
	if c.RefundNoPromocode(e, now); c.State != domain.StateRefundPending || c.PromoState != domain.PromoReleased ||
		c.HoldsPromocodeUse(now) || c.PaymentIntent != "pi_late" || *c.AmountPaid != 5875 || !c.PaidOrBeyond() {
		t.Fatalf("refund decided: %+v", c)
	}
	c.RefundClaim = 1
	r := c.Refund()
	if r.PaymentIntent != "pi_late" || r.IdempotencyKey != "podium-refund-ord_1" || r.Metadata["reason"] != domain.ReasonPromocodeUsedUp || r.Metadata["orderId"] != "ord_1" {
		t.Fatalf("refund to make: %+v", r)
	}
	msgs := c.Refunded("re_1", now)
	if c.State != domain.StateRefundedNoPromocode || c.RefundID != "re_1" || c.Refunded("re_2", now) != nil || c.RefundID != "re_1" {
		t.Fatalf("refunded: %+v", c)
	}
	want := domain.PaymentRefunded{OrderID: "ord_1", SessionID: "cs_1", RefundID: "re_1", Amount: 5875, Currency: "EUR", RefundedAt: now, Livemode: true}
	if len(msgs) != 1 || msgs[0].Type != domain.EventPaymentRefunded || msgs[0].Key != "ord_1" || msgs[0].Data != want {
		t.Fatalf("refund messages: %+v", msgs)
	}
}

// TestRefundsAreDecidedOnce: a refund is decided once, whatever repeats the news; a free
// order is refunded at once, with nothing to refund; a payment without a payment intent
// cannot be refunded, and waits for an operator (REFUND_FAILED, no_payment_to_refund) rather
// than for an event that never comes.
func TestRefundsAreDecidedOnce(t *testing.T) {
	c := checkout(domain.StatePaid)
	c.PaymentIntent = "pi_recorded"
	if c.RefundNoPlace(domain.OrderEvent{PaymentRef: "cs_1"}, now); c.PaymentIntent != "pi_recorded" || !c.RefundPending() {
		t.Fatalf("refund of the recorded payment: %+v", c)
	}
	if c.RefundNoPlace(domain.OrderEvent{PaymentRef: "pi_other"}, now.Add(time.Minute)); c.PaymentIntent != "pi_recorded" || !c.UpdatedAt.Equal(now) {
		t.Fatalf("a second decision changed the first: %+v", c)
	}
	if c.RefundNoPromocode(pay(domain.PaymentCompleted, true), now); c.RefundReason != domain.ReasonNoPlaceLeft {
		t.Fatalf("a late payment's refund replaced a pending one: %+v", c)
	}
	free := checkout(domain.StatePaid)
	free.Total = 0
	if free.RefundNoPlace(domain.OrderEvent{}, now); free.State != domain.StateRefundedNoPlace || free.Refunded("re_1", now) != nil {
		t.Fatalf("free order: %+v", free)
	}
	none := checkout(domain.StatePaid)
	if none.RefundNoPlace(domain.OrderEvent{}, now); none.State != domain.StateRefundFailed || none.RefundErrorCode != domain.RefundCodeNoPayment ||
		none.RefundErrorMessage == "" || !none.RefundFailedAt.Equal(now) || none.RefundNextAttemptAt != nil || none.PromoState != domain.PromoReleased {
		t.Fatalf("a refund without a payment intent: %+v", none)
	}
	late := checkout(domain.StateOpen)
	noIntent := pay(domain.PaymentCompleted, true)
	noIntent.PaymentIntent = ""
	if late.RefundNoPromocode(noIntent, now); late.State != domain.StateRefundFailed || late.RefundErrorCode != domain.RefundCodeNoPayment ||
		*late.AmountPaid != 5875 || late.RefundReason != domain.ReasonPromocodeUsedUp {
		t.Fatalf("a late payment without a payment intent: %+v", late)
	}
	if err := late.RetryRefund(now, ""); !errors.Is(err, fault.ErrConflict) || late.State != domain.StateRefundFailed {
		t.Fatalf("retried with no payment named: %v %s", err, late.State)
	}
	if err := late.RetryRefund(now, "ch_1"); !errors.Is(err, fault.ErrConflict) || late.PaymentIntent != "" {
		t.Fatalf("retried naming a charge: %v %+v", err, late)
	}
	if err := late.RetryRefund(now, "pi_found"); err != nil || late.State != domain.StateRefundPending || late.PaymentIntent != "pi_found" ||
		late.RefundErrorCode != "" || !late.RefundNextAttemptAt.Equal(now) {
		t.Fatalf("retried naming the payment: %v %+v", err, late)
	}
}

// TestOutcomesAlreadyApplied: an event reporting the outcome a checkout already has is a
// duplicate and changes nothing; reconciliation skips what changes nothing.
func TestOutcomesAlreadyApplied(t *testing.T) {
	for _, c := range []struct {
		state        domain.State
		event        domain.PaymentEvent
		has, changes bool
	}{
		{domain.StateOpen, pay(domain.PaymentCompleted, true), false, true},
		{domain.StatePaid, pay(domain.PaymentCompleted, true), true, false},
		{domain.StateCompleted, pay(domain.PaymentAsyncSucceeded, true), true, false},
		{domain.StateRefundPending, pay(domain.PaymentCompleted, true), true, false},
		{domain.StateRefundFailed, pay(domain.PaymentCompleted, true), true, false},
		{domain.StateExpired, pay(domain.PaymentCompleted, true), false, true},
		{domain.StateOpen, pay(domain.PaymentExpired, false), false, true},
		{domain.StateExpired, pay(domain.PaymentExpired, false), true, false},
		{domain.StatePaid, pay(domain.PaymentExpired, false), false, false},
		{domain.StateProcessing, pay(domain.PaymentCompleted, false), true, false},
		{domain.StatePaymentFailed, pay(domain.PaymentAsyncFailed, false), true, false},
	} {
		chk := checkout(c.state)
		if has, changes := chk.HasOutcome(c.event), chk.Changes(c.event); has != c.has || changes != c.changes || chk.State != c.state {
			t.Errorf("%s + %s (paid %v): outcome applied %v, changes %v; want %v, %v", c.state, c.event.Kind, c.event.Paid, has, changes, c.has, c.changes)
		}
	}
}

// TestZeroTotalIsPaidOnce: a held zero-total checkout is PAID with a payment.succeeded of
// amount 0 and reference "free", keeping its promocode use; recording it again publishes
// nothing more.
func TestZeroTotalIsPaidOnce(t *testing.T) {
	c := checkout(domain.StateHeld)
	c.Total, c.SessionID = 0, ""
	msgs := c.PaidFree("free_1", "https://a.example/ok?session_id=free_1", now)
	want := domain.PaymentSucceeded{OrderID: "ord_1", SessionID: "free_1", PaymentRef: domain.PaymentRefFree, Amount: 0, Currency: "EUR", PaidAt: now, Livemode: true}
	if len(msgs) != 1 || msgs[0].Type != domain.EventPaymentSucceeded || msgs[0].Topic != domain.PaymentsTopic || msgs[0].Key != "ord_1" || msgs[0].Data != want {
		t.Fatalf("messages %+v", msgs)
	}
	if c.State != domain.StatePaid || c.AmountPaid == nil || *c.AmountPaid != 0 || c.SessionID != "free_1" || !c.HoldsPromocodeUse(now) {
		t.Fatalf("checkout %+v", c)
	}
	if again := c.PaidFree("free_2", "https://a.example/ok?session_id=free_2", now); again != nil || c.SessionID != "free_1" {
		t.Fatalf("paid again: %+v, session %s", again, c.SessionID)
	}
}

func TestOrderTransitions(t *testing.T) {
	for _, c := range []struct {
		from    domain.State
		typ     string
		to      domain.State
		changed bool
	}{
		{domain.StatePaid, domain.EventOrderCompleted, domain.StateCompleted, true},
		{domain.StateOpen, domain.EventOrderCompleted, domain.StateCompleted, true},
		{domain.StateCompleted, domain.EventOrderCompleted, domain.StateCompleted, false},
		{domain.StateRefundPending, domain.EventOrderCompleted, domain.StateRefundPending, false},
		{domain.StateRefundPending, domain.EventOrderReleased, domain.StateRefundPending, false},
		{domain.StateRefundFailed, domain.EventOrderCompleted, domain.StateRefundFailed, false},
		{domain.StateRefundFailed, domain.EventOrderReleased, domain.StateRefundFailed, false},
		{domain.StateRefundedNoPlace, domain.EventOrderCompleted, domain.StateRefundedNoPlace, false},
		{domain.StateRefundedNoPromocode, domain.EventOrderCompleted, domain.StateRefundedNoPromocode, false},
		{domain.StateRefundedNoPromocode, domain.EventOrderReleased, domain.StateRefundedNoPromocode, false},
		{domain.StateOpen, domain.EventOrderReleased, domain.StateReleased, true},
		{domain.StateHeld, domain.EventOrderReleased, domain.StateReleased, true},
		{domain.StatePaid, domain.EventOrderReleased, domain.StatePaid, false},
		{domain.StateExpired, domain.EventOrderReleased, domain.StateExpired, false},
		{domain.StateOpen, "podium.registration.order.other.v1", domain.StateOpen, false},
	} {
		chk := checkout(c.from)
		if changed := chk.ApplyOrder(domain.OrderEvent{Type: c.typ, OrderID: "ord_1"}, now); changed != c.changed || chk.State != c.to {
			t.Errorf("%s + %s: %s (changed %v), want %s (%v)", c.from, c.typ, chk.State, changed, c.to, c.changed)
		}
	}
	c := checkout(domain.StatePaid)
	c.PaymentIntent = "pi_recorded"
	if c.RefundPaymentIntent(domain.OrderEvent{PaymentRef: "pi_named"}) != "pi_named" || c.RefundPaymentIntent(domain.OrderEvent{PaymentRef: "cs_1"}) != "pi_recorded" {
		t.Fatal("refund payment intent")
	}
}

func TestRequestHashIsCanonical(t *testing.T) {
	a, err := domain.RequestHash([]byte(`{"b": [1, {"y": 2, "x": "é"}], "a": 1.50}`))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := domain.RequestHash([]byte("{\"a\":1.50,\n\"b\":[1,{\"x\":\"é\",\"y\":2}]}"))
	c, _ := domain.RequestHash([]byte(`{"a":1.5,"b":[1,{"x":"é","y":2}]}`))
	d, _ := domain.RequestHash([]byte(`{"a":1.50,"b":[{"x":"é","y":2},1]}`))
	if !bytes.Equal(a, b) || bytes.Equal(a, d) || len(a) != 32 {
		t.Fatal("the hash depends on key order or spacing, or ignores array order")
	}
	_ = c // 1.5 and 1.50 are different texts; either outcome is acceptable for a retry sent by the same client
	if _, err := domain.RequestHash([]byte(`{"a":`)); !errors.Is(err, domain.ErrInvalidBody) {
		t.Fatalf("invalid JSON: %v", err)
	}
}

func TestAppendQuery(t *testing.T) {
	for in, want := range map[string]string{
		"https://a.example/ok":            "https://a.example/ok?session_id={X}",
		"https://a.example/ok?step=2":     "https://a.example/ok?step=2&session_id={X}",
		"https://a.example/ok?":           "https://a.example/ok?session_id={X}",
		"https://a.example/ok?a=1#review": "https://a.example/ok?a=1&session_id={X}#review",
		"https://a.example/ok#top":        "https://a.example/ok?session_id={X}#top",
	} {
		if got := domain.AppendQuery(in, "session_id={X}"); got != want {
			t.Errorf("AppendQuery(%s) = %s, want %s", in, got, want)
		}
	}
}

func TestIDs(t *testing.T) {
	a, b := domain.NewCheckoutID(), domain.NewFreeSessionID()
	if len(a) != 24 || a[:4] != "chk_" || len(b) != 25 || b[:5] != "free_" || a == domain.NewCheckoutID() {
		t.Fatalf("ids %s %s", a, b)
	}
}

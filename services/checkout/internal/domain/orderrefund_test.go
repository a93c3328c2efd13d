package domain_test

import (
	"errors"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

func paidFor(total int64) domain.Checkout {
	paid := total
	return domain.Checkout{ID: "chk_1", OrderID: "ord_1", State: domain.StateCompleted, AmountPaid: &paid, PaymentIntent: "pi_1", Currency: "EUR",
		Quote: domain.Quote{Total: total, Registrations: []domain.RegistrationQuote{{Total: 5000}, {Total: 800}}}, HoldTickets: [][]string{{"a", "b", "c"}, {"d"}}}
}

func TestTicketsShareSplitsEachRegistrationsTotal(t *testing.T) {
	c := paidFor(5875) // 75 of per-order fees
	for _, tc := range []struct {
		tickets []string
		want    int64
	}{
		{[]string{"a"}, 1667}, {[]string{"b"}, 1667}, {[]string{"c"}, 1666}, {[]string{"a", "b", "c"}, 5000}, {[]string{"d"}, 800}, {[]string{"a", "d"}, 2467},
	} {
		if got, err := c.TicketsShare(tc.tickets); err != nil || got != tc.want {
			t.Errorf("share of %v: %d %v, want %d", tc.tickets, got, err, tc.want)
		}
	}
	if _, err := c.TicketsShare([]string{"x"}); !errors.Is(err, fault.ErrNotFound) {
		t.Errorf("an unknown ticket: %v", err)
	}
}

func TestDecideRefund(t *testing.T) {
	now := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	amount := func(n int64) *int64 { return &n }
	open := paidFor(5875)
	open.State = domain.StateOpen
	for name, tc := range map[string]struct {
		r    domain.Refundable
		req  domain.RefundRequest
		want int64
		code string
	}{
		"the rest":              {r: domain.Refundable{Checkout: paidFor(5875), Refunded: 875}, want: 5000},
		"an amount":             {r: domain.Refundable{Checkout: paidFor(5875)}, req: domain.RefundRequest{Amount: amount(10)}, want: 10},
		"tickets":               {r: domain.Refundable{Checkout: paidFor(5875)}, req: domain.RefundRequest{TicketIDs: []string{"d"}}, want: 800},
		"tickets and an amount": {r: domain.Refundable{Checkout: paidFor(5875)}, req: domain.RefundRequest{TicketIDs: []string{"d"}, Amount: amount(5)}, want: 5},
		"nothing left":          {r: domain.Refundable{Checkout: paidFor(5875), Refunded: 5875}, code: domain.CodeRefundExceedsPaid},
		"more than left":        {r: domain.Refundable{Checkout: paidFor(5875), Refunded: 5000}, req: domain.RefundRequest{Amount: amount(876)}, code: domain.CodeRefundExceedsPaid},
		"a ticket refunded":     {r: domain.Refundable{Checkout: paidFor(5875), RefundedTickets: []string{"d"}}, req: domain.RefundRequest{TicketIDs: []string{"d"}}, code: domain.CodeTicketAlreadyRefunded},
		"not paid":              {r: domain.Refundable{Checkout: open}, code: domain.CodeOrderNotPaid},
	} {
		got, err := domain.DecideRefund(tc.r, tc.req, "rfd_1", now)
		var f *fault.Error
		switch {
		case tc.code != "" && (!errors.As(err, &f) || f.Code != tc.code || f.Kind != fault.Conflict):
			t.Errorf("%s: %v, want 409 %s", name, err, tc.code)
		case tc.code == "" && (err != nil || got.Amount != tc.want || got.State != domain.RefundStatePending):
			t.Errorf("%s: %+v %v, want %d pending", name, got, err, tc.want)
		}
	}
}

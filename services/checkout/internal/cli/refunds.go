// Package cli is checkout's operator command on its refunds: `checkout refunds list` shows the
// refunds that failed for good (refused by Stripe, or with no payment to refund),
// `checkout refunds retry` hands them back to the refund workers and `checkout refunds resolve`
// records a payment returned outside checkout, through the use cases on checkout's database.
package cli

import (
	"context"
	"errors"
	"io"
	"time"

	"github.com/podiumhq/podium/libs/admin/command"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// Usage is the usage of the refunds command.
const Usage = `
Refunds that failed for good (database from DATABASE_URL):

  checkout refunds list
                   print every REFUND_FAILED checkout, one JSON object a line: checkoutId,
                   orderId, paymentIntent, amount, currency, reason, the code and message
                   (Stripe's, or no_payment_to_refund), attempts, failedAt
  checkout refunds retry <checkoutId>... | --all
                   once the cause is fixed in Stripe, move the named REFUND_FAILED checkouts
                   (or every one) back to REFUND_PENDING: a running instance's refund worker
                   records the refund that returns the payment, or makes one, within seconds;
                   prints each
  checkout refunds retry --payment-intent <pi_…> <checkoutId>
                   the same for a checkout that records no payment (no_payment_to_refund),
                   naming the payment to refund
  checkout refunds resolve --refund <reference> <checkoutId>
                   the payment was returned outside checkout (refunded in Stripe's dashboard,
                   a dispute the buyer won, a bank transfer): record it as the checkout's
                   refund with that reference (Stripe's re_… id, or the transfer's), so the
                   order reads REFUNDED; prints it
`

// Refunds are the use cases the command runs.
type Refunds interface {
	FailedRefunds(ctx context.Context) ([]domain.Checkout, error)
	RetryRefund(ctx context.Context, checkoutID, paymentIntent string) (domain.Checkout, error)
	ResolveRefund(ctx context.Context, checkoutID, reference string) (domain.Checkout, error)
}

// refundLine is one line of the command's output.
type refundLine struct {
	CheckoutID    string     `json:"checkoutId"`
	OrderID       string     `json:"orderId"`
	State         string     `json:"state"`
	PaymentIntent string     `json:"paymentIntent"`
	Amount        int64      `json:"amount"`
	Currency      string     `json:"currency"`
	Reason        string     `json:"reason"`
	Code          string     `json:"code,omitempty"`
	Message       string     `json:"message,omitempty"`
	Attempts      int        `json:"attempts"`
	FailedAt      *time.Time `json:"failedAt,omitempty"`
	RefundID      string     `json:"refundId,omitempty"`
}

func lineOf(c domain.Checkout) refundLine {
	return refundLine{
		CheckoutID: c.ID, OrderID: c.OrderID, State: string(c.State), PaymentIntent: c.PaymentIntent, Amount: c.RefundAmount(), Currency: c.Currency,
		Reason: c.RefundReason, Code: c.RefundErrorCode, Message: c.RefundErrorMessage, Attempts: c.RefundAttempts, FailedAt: c.RefundFailedAt,
		RefundID: c.RefundID,
	}
}

// Commands are the refunds commands by name, what follows "refunds" on the command line. Each
// prints one JSON line a checkout, escaped for a terminal (command.JSONLine): a refund's
// message is Stripe's.
var Commands = command.Set[Refunds]{
	"list":    list,
	"retry":   retry,
	"resolve": resolve,
}

func list(ctx context.Context, r Refunds, args []string, out io.Writer) error {
	if err := command.NewFlags("refunds list").Parse(args); err != nil {
		return err
	}
	failed, err := r.FailedRefunds(ctx)
	if err != nil {
		return err
	}
	for _, c := range failed {
		if err := command.JSONLine(out, lineOf(c)); err != nil {
			return err
		}
	}
	return nil
}

// retry moves the named checkouts (every failed one with --all) back to REFUND_PENDING, the one
// named with --payment-intent, and prints each; one that cannot be retried does not hold the
// others back.
func retry(ctx context.Context, r Refunds, args []string, out io.Writer) error {
	f := command.NewFlags("refunds retry")
	all := f.Bool("all", false, "every REFUND_FAILED checkout")
	paymentIntent := f.String("payment-intent", "", "the payment to refund, for one checkout")
	ids, err := f.ParseArgs(args)
	switch {
	case err != nil:
		return err
	case *paymentIntent != "" && (len(ids) != 1 || *all):
		return f.Refuse("--payment-intent names one checkout")
	case (len(ids) > 0) == *all:
		return f.Refuse("needs checkout ids or --all")
	case *all:
		failed, err := r.FailedRefunds(ctx)
		if err != nil {
			return err
		}
		for _, c := range failed {
			ids = append(ids, c.ID)
		}
	}
	var errs []error
	for _, id := range ids {
		c, err := r.RetryRefund(ctx, id, *paymentIntent)
		if err == nil {
			err = command.JSONLine(out, lineOf(c))
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

func resolve(ctx context.Context, r Refunds, args []string, out io.Writer) error {
	f := command.NewFlags("refunds resolve")
	reference := f.Required("refund", "the reference of a refund made outside checkout")
	ids, err := f.ParseArgs(args)
	switch {
	case err != nil:
		return err
	case len(ids) != 1:
		return f.Refuse("needs --refund <reference> and one checkout")
	}
	c, err := r.ResolveRefund(ctx, ids[0], *reference)
	if err != nil {
		return err
	}
	return command.JSONLine(out, lineOf(c))
}

// Package cli is checkout's operator command on its refunds: `checkout refunds list` shows the
// refunds that failed for good (refused by Stripe, or with no payment to refund),
// `checkout refunds retry` hands them back to the refund workers and `checkout refunds resolve`
// records a payment returned outside checkout, through the use cases on checkout's database.
package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/podiumhq/podium/libs/safetext"
	"github.com/podiumhq/podium/libs/service"
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

// writeLine prints c as one line of JSON in which every character that could move the
// cursor, clear a line or reorder text is escaped (safetext.EscapeJSON): the message is
// Stripe's.
func writeLine(out io.Writer, c domain.Checkout) error {
	b, err := json.Marshal(lineOf(c))
	if err != nil {
		return err
	}
	_, err = out.Write(append(safetext.EscapeJSON(b), '\n'))
	return err
}

// RunRefunds runs the refunds command: args are what follows "refunds" on the command line.
// A command line not understood is a service.ErrUsage.
func RunRefunds(ctx context.Context, r Refunds, args []string, out io.Writer) error {
	if len(args) == 0 {
		return fmt.Errorf("%w: refunds needs list, retry or resolve", service.ErrUsage)
	}
	fs := flag.NewFlagSet("refunds "+args[0], flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	all := fs.Bool("all", false, "every REFUND_FAILED checkout")
	paymentIntent := fs.String("payment-intent", "", "the payment to refund, for one checkout")
	reference := fs.String("refund", "", "the reference of a refund made outside checkout")
	if err := fs.Parse(args[1:]); err != nil {
		return fmt.Errorf("%w: %w", service.ErrUsage, err)
	}
	for _, a := range fs.Args() {
		if strings.HasPrefix(a, "-") { // a flag after a checkout id
			return fmt.Errorf("%w: flags go before the checkout ids: %q", service.ErrUsage, a)
		}
	}
	switch {
	case *reference != "" && (args[0] != "resolve" || fs.NArg() != 1 || *all || *paymentIntent != ""):
		return fmt.Errorf("%w: --refund goes with refunds resolve and one checkout", service.ErrUsage)
	case args[0] == "resolve" && *reference != "":
		c, err := r.ResolveRefund(ctx, fs.Arg(0), *reference)
		if err != nil {
			return err
		}
		return writeLine(out, c)
	case args[0] == "resolve":
		return fmt.Errorf("%w: refunds resolve needs --refund <reference> and one checkout", service.ErrUsage)
	case args[0] == "list" && fs.NArg() == 0 && !*all && *paymentIntent == "":
		failed, err := r.FailedRefunds(ctx)
		if err != nil {
			return err
		}
		for _, c := range failed {
			if err := writeLine(out, c); err != nil {
				return err
			}
		}
		return nil
	case args[0] == "retry" && *paymentIntent != "" && (fs.NArg() != 1 || *all):
		return fmt.Errorf("%w: refunds retry --payment-intent names one checkout", service.ErrUsage)
	case args[0] == "retry" && (fs.NArg() > 0) != *all:
		return retry(ctx, r, fs.Args(), *all, *paymentIntent, out)
	case args[0] == "retry":
		return fmt.Errorf("%w: refunds retry needs checkout ids or --all", service.ErrUsage)
	case args[0] == "list":
		return fmt.Errorf("%w: refunds list takes no argument", service.ErrUsage)
	}
	return fmt.Errorf("%w: unknown refunds command %q", service.ErrUsage, args[0])
}

// retry moves the named checkouts (every failed one with all) back to REFUND_PENDING, the one
// named with paymentIntent, and prints each; one that cannot be retried does not hold the
// others back.
func retry(ctx context.Context, r Refunds, ids []string, all bool, paymentIntent string, out io.Writer) error {
	if all {
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
		c, err := r.RetryRefund(ctx, id, paymentIntent)
		if err == nil {
			err = writeLine(out, c)
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

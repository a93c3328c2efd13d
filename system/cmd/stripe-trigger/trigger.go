package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/podiumhq/podium/libs/testkit/stripeevent"
	"github.com/podiumhq/podium/system/stripewebhook"
)

// errUsage reports a command line that cannot be understood.
var errUsage = errors.New("usage")

// Kinds of event the trigger sends, by the name given to --event.
var kinds = map[string]string{
	"completed":       "checkout.session.completed",
	"expired":         "checkout.session.expired",
	"async_succeeded": "checkout.session.async_payment_succeeded",
	"async_failed":    "checkout.session.async_payment_failed",
}

// session is what the event says about the checkout session. Empty fields are left out or
// made up (a payment intent id) when unknown.
type session = stripeevent.Session

// lookup finds a session by a checkout id (chk_…), Stripe session id (cs_…, the latest
// checkout with it) or order id (ord_…).
type lookup func(ctx context.Context, id string) (session, error)

// options are the trigger's settings.
type options struct {
	secret string
	// lookup, when set, fills the event from checkout's records.
	lookup lookup
	http   *http.Client
	now    func() time.Time
}

// trigger parses the command line, builds and signs the event, posts it and prints the
// answer.
func trigger(ctx context.Context, o options, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("stripe-trigger", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	id := fs.String("session", "", "chk_…, cs_… or ord_… of the session")
	kind := fs.String("event", "completed", "completed, expired, async_succeeded or async_failed")
	url := fs.String("url", "http://127.0.0.1:8080/webhooks/stripe", "the webhook endpoint (the gateway's route)")
	pi := fs.String("payment-intent", "", "payment intent id (default: the session's, or a made-up one)")
	unpaid := fs.Bool("unpaid", false, "completed with payment_status unpaid (a delayed payment method)")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %w", errUsage, err)
	}
	typ, ok := kinds[*kind]
	if *id == "" || !ok || fs.NArg() > 0 {
		return fmt.Errorf("%w: --session and an --event of completed, expired, async_succeeded or async_failed are needed", errUsage)
	}
	s, err := resolve(ctx, o.lookup, *id)
	if err != nil {
		return err
	}
	if *pi != "" {
		s.PaymentIntent = *pi
	}
	a, err := stripewebhook.Deliver(ctx, o.http, *url, o.secret, stripewebhook.Event{Type: typ, Session: s, Paid: !*unpaid, At: o.now()})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "%s -> %s: %s\n", typ, *url, a)
	if !a.OK() {
		return fmt.Errorf("the endpoint answered %d", a.Status)
	}
	return nil
}

// resolve fills a session from checkout's records, or from the id alone without them.
func resolve(ctx context.Context, find lookup, id string) (session, error) {
	if find != nil {
		s, err := find(ctx, id)
		if err != nil {
			return session{}, fmt.Errorf("look up %s: %w", id, err)
		}
		return s, nil
	}
	switch {
	case strings.HasPrefix(id, "chk_"):
		return session{CheckoutID: id, SessionID: "cs_test_trigger_" + id[4:]}, nil
	case strings.HasPrefix(id, "cs_"):
		return session{SessionID: id}, nil
	}
	return session{}, fmt.Errorf("%w: without DATABASE_URL, --session must be a chk_… or cs_… id", errUsage)
}

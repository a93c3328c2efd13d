// Command stripe-trigger sends a correctly signed Stripe webhook for a checkout session to a
// running stack, as the Stripe CLI's `stripe trigger` does, so that a whole purchase runs
// locally with stripe-mock and no Stripe account (services/checkout README, "A local
// purchase, end to end"). It is a tool of the local stack, never part of a service.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"
)

const usage = `Usage:
  stripe-trigger --session <chk_…|cs_…|ord_…> [--event completed|expired|async_succeeded|async_failed]
                 [--unpaid] [--url http://127.0.0.1:8080/webhooks/stripe] [--payment-intent pi_…]

Sends a Stripe webhook for a checkout session, signed with STRIPE_WEBHOOK_SECRET (checkout's).
With DATABASE_URL (checkout's database) set, the session's ids and amount are read from it.
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Getenv, os.Stdout)
	stop()
	if err == nil {
		return
	}
	fmt.Fprintf(os.Stderr, "stripe-trigger: %v\n", err)
	if errors.Is(err, errUsage) {
		fmt.Fprint(os.Stderr, "\n"+usage)
		os.Exit(2)
	}
	os.Exit(1)
}

// run sends the webhook args describe, reading STRIPE_WEBHOOK_SECRET and DATABASE_URL from
// getenv.
func run(ctx context.Context, args []string, getenv func(string) string, out io.Writer) error {
	o := options{secret: getenv("STRIPE_WEBHOOK_SECRET"), http: &http.Client{Timeout: 30 * time.Second}, now: time.Now}
	if o.secret == "" {
		return fmt.Errorf("%w: STRIPE_WEBHOOK_SECRET is required", errUsage)
	}
	if dbURL := getenv("DATABASE_URL"); dbURL != "" {
		db, err := openCheckouts(ctx, dbURL)
		if err != nil {
			return err
		}
		defer db.close(context.WithoutCancel(ctx))
		o.lookup = db.session
	}
	return trigger(ctx, o, args, out)
}

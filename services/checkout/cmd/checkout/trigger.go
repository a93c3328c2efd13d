package main

import (
	"context"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/podiumhq/podium/libs/postgres"
	"github.com/podiumhq/podium/services/checkout/internal/adapters/store"
	"github.com/podiumhq/podium/services/checkout/internal/app"
	"github.com/podiumhq/podium/services/checkout/internal/trigger"
)

// triggerHTTP posts the trigger's webhook.
var triggerHTTP = &http.Client{Timeout: 30 * time.Second}

// runTrigger runs `checkout trigger`, reading sessions from checkout's database when
// DATABASE_URL is set.
func runTrigger(ctx context.Context, cfg TriggerConfig, args []string, out io.Writer) error {
	o := trigger.Options{Secret: cfg.StripeWebhookSecret, HTTP: triggerHTTP}
	if cfg.DatabaseURL != "" {
		pool, err := postgres.Connect(ctx, cfg.DatabaseURL, postgres.Options{MaxConns: 2})
		if err != nil {
			return err
		}
		defer pool.Close()
		repo := store.New(pool)
		o.Lookup = func(ctx context.Context, id string) (trigger.Session, error) {
			ref := app.CheckoutRef{ID: id}
			switch {
			case strings.HasPrefix(id, "cs_"), strings.HasPrefix(id, "free_"):
				ref = app.CheckoutRef{SessionID: id}
			case strings.HasPrefix(id, "ord_"):
				ref = app.CheckoutRef{OrderID: id}
			}
			c, err := repo.Checkout(ctx, ref)
			if err != nil {
				return trigger.Session{}, err
			}
			return trigger.Session{
				CheckoutID: c.ID, SessionID: c.SessionID, OrderID: c.OrderID, EventID: c.EventID, OrganizerID: c.OrganizerID,
				PaymentIntent: c.PaymentIntent, Currency: c.Currency, Amount: c.Total,
			}, nil
		}
	}
	return trigger.Run(ctx, o, args, out)
}

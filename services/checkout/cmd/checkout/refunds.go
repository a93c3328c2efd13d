package main

import (
	"context"
	"io"
	"os"

	"github.com/podiumhq/podium/libs/config"
	"github.com/podiumhq/podium/libs/logging"
	"github.com/podiumhq/podium/libs/postgres"
	"github.com/podiumhq/podium/services/checkout/internal/adapters/store"
	"github.com/podiumhq/podium/services/checkout/internal/app"
	"github.com/podiumhq/podium/services/checkout/internal/cli"
)

// refunds is the operator command on the refunds that failed for good. It works on
// checkout's database directly (DATABASE_URL and the pool's settings only), as migrate does:
// the running instances' refund workers pick up what it hands back at their next scan.
func refunds(ctx context.Context, args []string, stdout io.Writer) error {
	cfg, err := config.Load[config.Postgres]()
	if err != nil {
		return err
	}
	pool, err := postgres.Open(ctx, cfg, 2)
	if err != nil {
		return err
	}
	defer pool.Close()
	// The command runs use cases on the repository only: no peer or payment provider is called.
	svc := app.New(store.New(pool), nil, nil, nil, logging.NewTo(os.Stderr, "checkout", "warn"), app.Options{})
	return cli.Commands.Run(ctx, svc, args, stdout)
}

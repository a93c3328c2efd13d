package api_test

import (
	"context"

	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/registration/internal/adapters/events"
	"github.com/podiumhq/podium/services/registration/internal/regtest"
)

func consumePayments(ctx context.Context, env *regtest.Env, joined func()) error {
	return events.Consume(ctx, env.Brokers, env.Service, testkit.Discard(), joined)
}

package stack

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strings"
)

// Trigger runs the stack's stripe-trigger command (system/cmd/stripe-trigger) as a developer
// would (services/checkout README, "A local purchase, end to end"): checkout's DATABASE_URL
// and STRIPE_WEBHOOK_SECRET in the environment, the webhook posted to the first gateway's
// /webhooks/stripe. args are the command's (--session ord_…, --event …). It returns what the
// command printed.
func (s *Stack) Trigger(ctx context.Context, args ...string) (string, error) {
	args = append([]string{"--url", s.GatewayURL() + "/webhooks/stripe"}, args...)
	cmd := exec.CommandContext(ctx, bin(s.opts.BinDir, triggerCommand), args...)
	cmd.Env = []string{"DATABASE_URL=" + s.DatabaseURL("checkout"), "STRIPE_WEBHOOK_SECRET=" + s.WebhookSecret}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return out.String(), fmt.Errorf("stack: %s %s: %w: %s", triggerCommand, strings.Join(args, " "), err, strings.TrimSpace(out.String()))
	}
	return out.String(), nil
}

package stack

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strings"
)

// Trigger runs `checkout trigger` against the stack as a developer would (services/checkout
// README, "A local purchase, end to end"): checkout's DATABASE_URL and STRIPE_WEBHOOK_SECRET
// in the environment, the webhook posted to the first gateway's /webhooks/stripe. args follow
// "trigger" (--session ord_…, --event …). It returns what the command printed.
func (s *Stack) Trigger(ctx context.Context, args ...string) (string, error) {
	args = append([]string{"trigger", "--url", s.GatewayURL() + "/webhooks/stripe"}, args...)
	cmd := exec.CommandContext(ctx, bin(s.opts.BinDir, "checkout"), args...)
	cmd.Env = []string{"DATABASE_URL=" + s.DatabaseURL("checkout"), "STRIPE_WEBHOOK_SECRET=" + s.WebhookSecret}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return out.String(), fmt.Errorf("stack: checkout %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(out.String()))
	}
	return out.String(), nil
}

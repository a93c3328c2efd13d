package bench

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/podiumhq/podium/system/stack"
)

// Settle waits until the services are idle (together under a tenth of a core over half a
// second), so a scenario does not measure the backlog the previous one left: the places events
// of 100,000 creates, say, still being applied by the catalog. It gives up after a minute and
// says so.
func Settle(ctx context.Context, s *stack.Stack, out io.Writer) error {
	procs := map[string]int{}
	for _, name := range stack.Services {
		procs[name] = s.PID(name)
	}
	const window, idle = 500 * time.Millisecond, 50 * time.Millisecond
	deadline := time.Now().Add(time.Minute)
	for {
		before, err := cpuTimes(procs)
		if err != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(window):
		}
		after, err := cpuTimes(procs)
		if err != nil {
			return err
		}
		var busy time.Duration
		for name := range procs {
			busy += after[name] - before[name]
		}
		if busy < idle {
			return nil
		}
		if time.Now().After(deadline) {
			fmt.Fprintf(out, "  (the services still used %v of CPU per %v after a minute; measuring anyway)\n", busy, window)
			return nil
		}
	}
}

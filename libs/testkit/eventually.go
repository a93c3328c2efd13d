package testkit

import (
	"testing"
	"time"
)

// Eventually checks every 20 ms until check returns "" and fails t with check's last answer
// once timeout passed: a test waits for what it expects to be true, never for a set time.
func Eventually(t testing.TB, timeout time.Duration, check func() string) {
	t.Helper()
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for problem := check(); problem != ""; problem = check() {
		select {
		case <-deadline.C:
			t.Fatal(problem)
		case <-tick.C:
		}
	}
}

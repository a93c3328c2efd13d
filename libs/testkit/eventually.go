package testkit

import (
	"testing"
	"time"
)

// Eventually checks until check returns "" and fails t with check's last answer once timeout
// passed: a test waits for what it expects to be true, never for a set time. The checks start
// 10 ms apart and back off to 250 ms, so a quick condition is seen at once and a slow one does
// not flood the system it asks (an end-to-end check goes through the gateway's rate limits).
func Eventually(t testing.TB, timeout time.Duration, check func() string) {
	t.Helper()
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	wait := 10 * time.Millisecond
	for problem := check(); problem != ""; problem = check() {
		pause := time.NewTimer(wait)
		select {
		case <-deadline.C:
			pause.Stop()
			t.Fatal(problem)
		case <-pause.C:
		}
		wait = min(2*wait, 250*time.Millisecond)
	}
}

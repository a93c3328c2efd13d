package regtest

import (
	"context"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/mail/mailcatch"
)

// StartMailCatcher starts an SMTP server that keeps what it receives until the test ends.
func StartMailCatcher(t testing.TB) *mailcatch.Catcher {
	t.Helper()
	c, err := mailcatch.Start("127.0.0.1:0", mailcatch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// WaitMail returns the first message to addr that c received, failing t if none arrives
// within 10 s.
func WaitMail(t testing.TB, c *mailcatch.Catcher, addr string) mailcatch.Message {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	m, err := c.Wait(ctx, mailcatch.To(addr))
	if err != nil {
		t.Fatalf("mail to %s: %v", addr, err)
	}
	return m
}

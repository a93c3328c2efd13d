package mail_test

import (
	"testing"
	"time"

	"github.com/podiumhq/podium/services/registration/internal/adapters/mail"
)

func TestBackoff(t *testing.T) {
	for attempts, want := range map[int]time.Duration{1: 2 * time.Second, 2: 4 * time.Second, 5: 32 * time.Second, 30: 10 * time.Minute} {
		if got := mail.Backoff(attempts); got != want {
			t.Errorf("Backoff(%d) = %v, want %v", attempts, got, want)
		}
	}
}

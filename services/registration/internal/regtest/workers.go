package regtest

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/registration/internal/adapters/events"
	"github.com/podiumhq/podium/services/registration/internal/adapters/mail"
)

// StartMailWorker runs a mail worker sending the outbox to the SMTP server on 127.0.0.1:port
// until stop is called or the test ends.
func (e *Env) StartMailWorker(t testing.TB, port int) (stop func()) {
	w := &mail.Worker{Store: e.Repo, Log: testkit.Logger(t), Poll: 50 * time.Millisecond,
		Sender: mail.NewSender(mail.Config{Host: "127.0.0.1", Port: port, From: "Podium <no-reply@podium.test>", Timeout: time.Second})}
	ctx, cancel := context.WithCancel(context.WithoutCancel(t.Context()))
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("mail worker: %v", err)
			}
		})
	}
	t.Cleanup(stop)
	return stop
}

// StartPayments runs the payments consumer on the broker until the test ends.
func (e *Env) StartPayments(t testing.TB) {
	testkit.Background(t, events.Consumer(e.Brokers, e.Service, testkit.Logger(t), nil).Run)
}

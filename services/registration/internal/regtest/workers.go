package regtest

import (
	"context"
	"net"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/config"
	smtpmail "github.com/podiumhq/podium/libs/mail"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/registration/internal/adapters/events"
	"github.com/podiumhq/podium/services/registration/internal/adapters/mail"
)

// StartMailWorker runs a mail worker sending the outbox to the SMTP server at addr (host:port)
// until stop is called or the test ends.
func (e *Env) StartMailWorker(t testing.TB, addr string) (stop func()) {
	t.Helper()
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		t.Fatal(err)
	}
	portNumber, err := strconv.Atoi(port)
	if err != nil {
		t.Fatal(err)
	}
	smtp := config.SMTP{SMTPHost: host, SMTPPort: portNumber, SMTPFrom: "Podium <no-reply@podium.test>"}
	w := &mail.Worker{Store: e.Repo, Log: testkit.Logger(t), Poll: 50 * time.Millisecond, Sender: smtpmail.NewSender(smtp, time.Second)}
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
	testkit.Background(t, events.Consumer(broker.Cluster{Brokers: e.Brokers}, e.Service, testkit.Logger(t), nil).Run)
}

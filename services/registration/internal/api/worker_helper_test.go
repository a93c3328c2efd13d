package api_test

import (
	"context"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/registration/internal/adapters/mail"
	"github.com/podiumhq/podium/services/registration/internal/domain"
	"github.com/podiumhq/podium/services/registration/internal/regtest"
)

type regtestEvent = domain.Event

// startWorker runs a mail worker sending to 127.0.0.1:port; the returned function stops it.
func startWorker(t *testing.T, env *regtest.Env, port int) func() {
	w := &mail.Worker{Store: env.Repo, Log: testkit.Logger(t), Poll: 50 * time.Millisecond,
		Sender: mail.NewSender(mail.Config{Host: "127.0.0.1", Port: port, From: "Podium <no-reply@podium.test>", Timeout: time.Second})}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() { _ = w.Run(ctx); close(done) }()
	stop := func() { cancel(); <-done }
	t.Cleanup(func() {
		select {
		case <-done:
		default:
			stop()
		}
	})
	return stop
}

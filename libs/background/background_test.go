package background_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/podiumhq/podium/libs/background"
)

// logs is a logger whose lines a test reads.
type logs struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logs) Write(p []byte) (int, error) { l.mu.Lock(); defer l.mu.Unlock(); return l.buf.Write(p) }
func (l *logs) String() string              { l.mu.Lock(); defer l.mu.Unlock(); return l.buf.String() }

func newLog() (*slog.Logger, *logs) {
	l := &logs{}
	return slog.New(slog.NewTextHandler(l, nil)), l
}

func TestStopCancelsTheWorkerAndWaitsForIt(t *testing.T) {
	log, out := newLog()
	ctx, cancel := context.WithCancel(t.Context())
	started, returned := make(chan struct{}), false
	stop := background.Start(ctx, log, "relay", func(ctx context.Context) error {
		close(started)
		<-ctx.Done()
		returned = true
		return ctx.Err()
	})
	<-started
	cancel() // the run's context ending does not stop the worker: stop does
	stop()
	if !returned {
		t.Fatal("stop returned before the worker")
	}
	if out.String() != "" {
		t.Fatalf("a worker stopped on purpose logged: %s", out)
	}
}

func TestAFailedWorkerIsLogged(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		log, out := newLog()
		stop := background.Start(t.Context(), log, "sweeper", func(context.Context) error { return errors.New("database gone") })
		synctest.Wait() // the worker has returned
		stop()
		if s := out.String(); !strings.Contains(s, "sweeper stopped") || !strings.Contains(s, "database gone") {
			t.Fatalf("log: %s", s)
		}
	})
}

package testkit

import (
	"log/slog"
	"testing"

	"github.com/podiumhq/podium/libs/logging"
)

// Logger writes the code under test's logs to the test's output, shown when it fails or with -v.
func Logger(t testing.TB) *slog.Logger {
	return logging.NewTo(t.Output(), t.Name(), "debug")
}

// Discard is a logger that drops everything.
func Discard() *slog.Logger { return slog.New(slog.DiscardHandler) }

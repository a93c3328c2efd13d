package api_test

import (
	"os"
	"testing"

	"github.com/podiumhq/podium/services/auth/internal/authtest"
)

// TestMain runs the API tests, which check every internal answer against auth's
// internal contract, and then requires every operation of it to have been answered.
func TestMain(m *testing.M) { os.Exit(authtest.InternalAPI.Run(m)) }

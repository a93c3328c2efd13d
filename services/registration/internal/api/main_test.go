package api_test

import (
	"os"
	"testing"

	"github.com/podiumhq/podium/services/registration/internal/regtest"
)

// TestMain runs the API tests, which check every internal answer against registration's
// internal contract, and then requires every operation of it to have been answered.
func TestMain(m *testing.M) { os.Exit(regtest.InternalAPI.Run(m)) }

package api_test

import (
	"os"
	"testing"

	"github.com/podiumhq/podium/services/catalog/internal/catalogtest"
)

// TestMain runs the API tests, which check every internal answer against the catalog's
// internal contract, and then requires every operation of it to have been answered.
func TestMain(m *testing.M) { os.Exit(catalogtest.InternalAPI.Run(m)) }

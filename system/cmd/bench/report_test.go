package main

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestTheReportNamesTheMachineAndHoldsEachScenarioAsItRan: the report states the machine and
// the Go version, then each scenario's output, and says which failed.
func TestTheReportNamesTheMachineAndHoldsEachScenarioAsItRan(t *testing.T) {
	rep := report{started: time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC), load: "1.20 0.80 0.50", shape: "3 rounds of 5s per path"}
	rep.add("gateway", []byte("\nGateway overhead\n  through bare nginx  15009 req/s\n"), nil)
	rep.add("catalog", []byte("Catalog public reads\n"), errors.New("bench: 3 of 9 requests failed"))
	path := filepath.Join(t.TempDir(), "bench", "report.md")
	if err := rep.write(t.Context(), path); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got := string(raw)
	for _, want := range []string{
		"3 rounds of 5s per path", "| date | 2026-11-28T12:00:00Z |", "| Go | " + runtime.Version() + " |", "| load average at the start (1, 5, 15 min) | 1.20 0.80 0.50 |",
		"| cores | " + strconv.Itoa(runtime.NumCPU()) + " |",
		"## gateway\n\n```\nGateway overhead\n  through bare nginx  15009 req/s\n```\n",
		"## catalog\n\n```\nCatalog public reads\n```\n\nFailed: bench: 3 of 9 requests failed\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the report lacks %q:\n%s", want, got)
		}
	}
	for _, row := range machine(t.Context()) {
		if row[0] != "commit" && (row[1] == "unknown" || row[1] == "") {
			t.Errorf("the machine's %s was not read", row[0])
		}
	}
}

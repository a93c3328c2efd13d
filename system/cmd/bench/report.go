package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/prometheus/procfs"
)

// report is what make bench writes: the machine, the run's shape, then each scenario's
// figures beside the baselines measured in the same run.
type report struct {
	started time.Time
	// load is the machine's load average when the run started: other work on it shows there.
	load  string
	shape string
	parts []section
}

type section struct {
	scenario string
	text     []byte
	err      error
}

// add records what a scenario printed and how it ended.
func (r *report) add(scenario string, text []byte, err error) {
	r.parts = append(r.parts, section{scenario: scenario, text: bytes.Clone(text), err: err})
}

// write writes the report as Markdown to path, making its directory.
func (r *report) write(ctx context.Context, path string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# make bench\n\n%s\n\n| machine | |\n|---|---|\n", r.shape)
	for _, row := range append([][2]string{{"date", r.started.UTC().Format(time.RFC3339)}}, machine(ctx)...) {
		fmt.Fprintf(&b, "| %s | %s |\n", row[0], row[1])
	}
	fmt.Fprintf(&b, "| load average at the start (1, 5, 15 min) | %s |\n", r.load)
	for _, s := range r.parts {
		fmt.Fprintf(&b, "\n## %s\n\n```\n%s```\n", s.scenario, bytes.TrimLeft(s.text, "\n"))
		if s.err != nil {
			fmt.Fprintf(&b, "\nFailed: %v\n", s.err)
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

// machine describes the machine the run measured on: CPU model, cores, memory, Go version and
// commit, "unknown" for what it cannot read.
func machine(ctx context.Context) [][2]string {
	model, memory := "unknown", "unknown"
	if fs, err := procfs.NewDefaultFS(); err == nil {
		if cpus, err := fs.CPUInfo(); err == nil && len(cpus) > 0 {
			model = cpus[0].ModelName
		}
		if mem, err := fs.Meminfo(); err == nil && mem.MemTotal != nil {
			memory = fmt.Sprintf("%.1f GiB", float64(*mem.MemTotal)/(1<<20))
		}
	}
	return [][2]string{{"CPU", model}, {"cores", fmt.Sprint(runtime.NumCPU())}, {"memory", memory},
		{"Go", runtime.Version()}, {"commit", commit(ctx)}}
}

// loadAverage is the machine's load average over 1, 5 and 15 minutes.
func loadAverage() string {
	fs, err := procfs.NewDefaultFS()
	if err != nil {
		return "unknown"
	}
	l, err := fs.LoadAvg()
	if err != nil {
		return "unknown"
	}
	return fmt.Sprintf("%.2f %.2f %.2f", l.Load1, l.Load5, l.Load15)
}

// commit is the checked-out commit, marked dirty when the tree has changes.
func commit(ctx context.Context) string {
	out, err := exec.CommandContext(ctx, "git", "describe", "--always", "--dirty").Output()
	if err != nil {
		return "unknown"
	}
	return strings.TrimSpace(string(out))
}

package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
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
func (r *report) write(path string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# make bench\n\n%s\n\n", r.shape)
	b.WriteString("| machine | |\n|---|---|\n")
	for _, row := range [][2]string{
		{"date", r.started.UTC().Format(time.RFC3339)},
		{"CPU", procField("/proc/cpuinfo", "model name")},
		{"cores", fmt.Sprint(runtime.NumCPU())},
		{"memory", procField("/proc/meminfo", "MemTotal")},
		{"kernel", strings.TrimSpace(readFile("/proc/sys/kernel/osrelease"))},
		{"load average at the start (1, 5, 15 min)", r.load},
		{"Go", runtime.Version()},
		{"commit", commit()},
	} {
		fmt.Fprintf(&b, "| %s | %s |\n", row[0], row[1])
	}
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

// procField is the value of the first "name: value" line of a /proc file, "unknown" if none.
func procField(path, name string) string {
	for line := range strings.Lines(readFile(path)) {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == name {
			return strings.Join(strings.Fields(v), " ")
		}
	}
	return "unknown"
}

// loadAverage is the machine's load average over 1, 5 and 15 minutes.
func loadAverage() string {
	f := strings.Fields(readFile("/proc/loadavg"))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

func readFile(path string) string {
	raw, _ := os.ReadFile(path)
	return string(raw)
}

// commit is the checked-out commit, marked dirty when the tree has changes.
func commit() string {
	out, err := exec.Command("git", "describe", "--always", "--dirty").Output()
	if err != nil {
		return "unknown"
	}
	return strings.TrimSpace(string(out))
}

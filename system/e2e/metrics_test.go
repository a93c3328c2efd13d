package e2e

import (
	"bufio"
	"strconv"
	"strings"
	"testing"
)

// metricTotal reads a service's /metrics at base and sums the samples of the series whose name
// starts with name and whose labels include every one of labels (written as `key="value"`); a
// series not exported yet counts 0.
func metricTotal(t *testing.T, base, name string, labels ...string) int {
	t.Helper()
	res := do(t, req{"GET", base + "/metrics", nil, nil})
	if res.status != 200 {
		t.Fatalf("GET %s/metrics: %d %s", base, res.status, res.body)
	}
	sc := bufio.NewScanner(strings.NewReader(string(res.body)))
	sc.Buffer(nil, 1<<20)
	total := 0
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, name) || !containsAll(line, labels) {
			continue
		}
		fields := strings.Fields(line)
		n, err := strconv.ParseFloat(fields[len(fields)-1], 64)
		if err != nil {
			t.Fatalf("metric line %q: %v", line, err)
		}
		total += int(n)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return total
}

func containsAll(s string, parts []string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}

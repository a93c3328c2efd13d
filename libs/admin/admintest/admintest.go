// Package admintest runs a service's operator commands in a test, against its admin API.
package admintest

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/admin"
	"github.com/podiumhq/podium/libs/admin/command"
)

// Operator runs Commands against the admin API at URL.
type Operator struct {
	Commands command.Set[*admin.Client]
	URL      string
}

// Run runs the command args name with token and returns what it printed.
func (o Operator) Run(t testing.TB, token string, args ...string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	err := o.Commands.Run(t.Context(), admin.NewClient(o.URL, token, 10*time.Second), args, &out)
	return out.String(), err
}

// MustRun runs the command args name with token and returns what it printed, failing the test
// when it fails.
func (o Operator) MustRun(t testing.TB, token string, args ...string) string {
	t.Helper()
	out, err := o.Run(t, token, args...)
	if err != nil {
		t.Fatalf("%s: %v", strings.Join(args, " "), err)
	}
	return out
}

// Find returns the last submatch of pattern in out (the whole match without a group), failing
// the test when out does not match.
func Find(t testing.TB, out, pattern string) string {
	t.Helper()
	m := regexp.MustCompile(pattern).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("output does not match %q:\n%s", pattern, out)
	}
	return m[len(m)-1]
}

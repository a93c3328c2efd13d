package contracttest

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
)

// Served checks an answer the owner's real handler gave to method on path (with or without
// its query): an operation of the contract serves it, the status is one the operation
// documents, and a body it documents matches its schema and carries nothing the schema does
// not describe. Problems fail t. The owner's test environment calls it for every answer of
// its internal routes, so every API test checks the contract as it goes.
func (a *API) Served(t testing.TB, method, path string, status int, body []byte) {
	t.Helper()
	path, _, _ = strings.Cut(path, "?")
	o, ok := a.Match(method, path)
	if !ok {
		t.Errorf("%s %s answered %d: no operation of the contract serves it", method, path, status)
		return
	}
	if err := o.CheckAnswer(status, body); err != nil {
		t.Error(err)
		return
	}
	if r := o.Responses[status]; r.Schema != nil {
		a.mu.Lock()
		a.seen[o.ID] = true
		a.mu.Unlock()
	}
}

// Unexercised returns the operations no answer with a documented body was checked for.
func (a *API) Unexercised() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	var out []string
	for _, o := range a.ops {
		if !a.seen[o.ID] {
			out = append(out, o.ID)
		}
	}
	return out
}

// Run runs the tests of m, the owner's API tests, and then, when they passed and ran whole
// (no -run or -skip), fails when an operation of the contract was never answered with a
// documented body: every operation is exercised through its real route. Call it from TestMain.
func (a *API) Run(m *testing.M) int {
	code := m.Run()
	if code != 0 || filtered() {
		return code
	}
	if missing := a.Unexercised(); len(missing) > 0 {
		fmt.Fprintf(os.Stderr, "FAIL: no test answered these operations of the internal contract with a documented body: %v\n", missing)
		return 1
	}
	return code
}

// filtered reports whether the tests were narrowed by -run or -skip.
func filtered() bool {
	for _, name := range []string{"test.run", "test.skip"} {
		if f := flag.Lookup(name); f != nil && f.Value.String() != "" {
			return true
		}
	}
	return false
}

package bench

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/podiumhq/podium/libs/testkit"
)

func TestCPUTimesReadEveryProcessAndTheMachine(t *testing.T) {
	times, err := watchedTimes(map[string]int{"self": os.Getpid()})
	if err != nil {
		t.Fatal(err)
	}
	if len(times) != 2 || times[machine] < times["self"] || times[machine] <= 0 {
		t.Fatalf("times %v; want this process's and the machine's, which spent at least as much", times)
	}
	if _, err := cpuTimes(map[string]int{"gone": -1}); err == nil {
		t.Fatal("the CPU time of no process was read")
	}
}

func TestChildPIDsListTheProcessesAProcessStarted(t *testing.T) {
	child := exec.Command("sleep", "60")
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = child.Process.Kill(); _ = child.Wait() }()
	children, err := childPIDs(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(children, child.Process.Pid) {
		t.Fatalf("children %v lack the started %d", children, child.Process.Pid)
	}
}

func TestDatabaseProcessesAreTheBackendsOfTheDatabase(t *testing.T) {
	url := testkit.DatabaseURL(t)
	conn, err := pgx.Connect(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(t.Context())
	var pid int
	if err := conn.QueryRow(t.Context(), "SELECT pg_backend_pid()").Scan(&pid); err != nil {
		t.Fatal(err)
	}
	backends := databaseProcesses(url)
	name := databaseNames([]string{url})[0]
	if backends[backendName(name, pid)] != pid {
		t.Fatalf("backends %v lack %d, this connection's", backends, pid)
	}
	for n := range backends {
		if !strings.HasPrefix(n, backendsOf(name)) {
			t.Errorf("backend %s serves another database than %s", n, name)
		}
	}
}

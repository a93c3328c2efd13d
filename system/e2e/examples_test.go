package e2e

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/podiumhq/podium/system/stack"
)

// TestOrganizerBackendExampleRuns runs the integration guide's Go example
// (examples/organizer-backend) against the system, as an integrator would, for an organizer
// of its own holding the demo's Summer Throwdown.
func TestOrganizerBackendExampleRuns(t *testing.T) {
	root, err := stack.RepoRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	tn := newTenant(t)
	if _, err := sys.ImportEvent(t.Context(), tn.org, filepath.Join(root, "services", "catalog", "demo", "summer-throwdown.yaml")); err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(t.Context(), "go", "run", ".")
	cmd.Dir = filepath.Join(root, "examples", "organizer-backend")
	cmd.Env = append(cmd.Environ(), "PODIUM_API_URL="+sys.GatewayURL()+"/external/v1", "PODIUM_SECRET_KEY="+tn.secret.Key)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the example failed: %v\n%s", err, out)
	}
	for _, want := range []string{"event evt_", "created reg_", "search: 1 matching tickets", `renamed to "Example Athlete (renamed)"`, "cancelled tkt_"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the example's output lacks %q:\n%s", want, out)
		}
	}
}

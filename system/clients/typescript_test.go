package clients

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/podiumhq/podium/system/stack"
)

// TestTypeScriptClient installs the TypeScript client's pinned packages (npm ci), builds it,
// checks its generated types against the document, runs its unit tests, then its integration
// test: the test-mode purchase against this stack. It skips only where node or npm is missing.
func TestTypeScriptClient(t *testing.T) {
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed: %v", tool, err)
		}
	}
	dir := filepath.Join(root, "clients", "typescript")
	npm(t, dir, nil, "ci", "--no-audit", "--no-fund")
	npm(t, dir, nil, "run", "build")
	npm(t, dir, nil, "run", "check:generated")
	npm(t, dir, nil, "test")
	out := npm(t, dir, []string{
		"PODIUM_BASE_URL=" + sys.GatewayURL(),
		"PODIUM_SECRET_KEY=" + secret.Key,
		"PODIUM_PUBLISHABLE_KEY=" + publishable.Key,
		"PODIUM_ORIGIN=" + stack.DemoOrigin,
		"PODIUM_EVENT_ID=" + event.ID,
	}, "run", "test:integration")
	if !strings.Contains(out, "# pass 1") || !strings.Contains(out, "# skipped 0") {
		t.Fatalf("the integration test did not run and pass:\n%s", out)
	}
}

// npm runs npm with args in dir, env added to this process's, and returns its output; a
// failure fails the test with it.
func npm(t *testing.T, dir string, env []string, args ...string) string {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), "npm", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("npm %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

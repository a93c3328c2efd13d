package stack

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// triggerCommand is the stack's tool that plays Stripe's webhooks (system/cmd/stripe-trigger).
const triggerCommand = "stripe-trigger"

// Build compiles every service and the stack's tools from the repository at root into binDir.
func Build(ctx context.Context, root, binDir string) error {
	args := []string{"build", "-o", binDir + string(filepath.Separator)}
	for _, svc := range Services {
		args = append(args, "./services/"+svc+"/cmd/"+svc)
	}
	args = append(args, "./system/cmd/"+triggerCommand)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = root
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("stack: build services: %w", err)
	}
	return nil
}

// RepoRoot finds the repository root (the directory holding go.work) above dir.
func RepoRoot(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.work")); err == nil {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("stack: no go.work above %s", dir)
		}
	}
}

// BuildTemp compiles every service and tool of the repository above the working directory
// into a new temporary directory named after pattern (os.MkdirTemp), for a test suite's stack.
// The caller removes the directory.
func BuildTemp(ctx context.Context, pattern string) (string, error) {
	root, err := RepoRoot(".")
	if err != nil {
		return "", err
	}
	binDir, err := os.MkdirTemp("", pattern)
	if err != nil {
		return "", err
	}
	if err := Build(ctx, root, binDir); err != nil {
		return binDir, err
	}
	return binDir, nil
}

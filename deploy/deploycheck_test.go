package deploy_test

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/podiumhq/podium/deploy/internal/deploycheck"
)

// TestDeployCheckRefusesPlantedMistakes runs `make deploy-check`'s check (a real kube-apiserver
// and etcd) on the manifests and on copies with one mistake planted each, which it must refuse.
// It starts four API servers (about a minute), so it runs only with DEPLOY_CHECK=1, after `make
// deploy-check` has built the tools into bin/tools.
func TestDeployCheckRefusesPlantedMistakes(t *testing.T) {
	if os.Getenv("DEPLOY_CHECK") != "1" {
		t.Skip("set DEPLOY_CHECK=1 to run the check on a real kube-apiserver (make deploy-check builds it into bin/tools)")
	}
	tools := filepath.Join(repoRoot(t), "bin", "tools")
	if _, err := os.Stat(filepath.Join(tools, "kube-apiserver")); err != nil {
		t.Fatalf("bin/tools/kube-apiserver missing: run make deploy-check first (%v)", err)
	}
	for _, tc := range []struct {
		name      string
		file, old string // the planted change: old's first occurrence in file becomes new
		new       string
		refused   string // the refused object, or the refused pod template with pod set
		pod       bool
		answer    string // part of the server's answer
	}{
		{name: "the manifests pass"},
		{
			name: "misspelled field", file: "gateway/deployment.yaml",
			old: "readOnlyRootFilesystem: true", new: "readOnlyRootFileSystem: true",
			refused: "Deployment/gateway", answer: "unknown field",
		},
		{
			name: "misspelled field of a CRD", file: "catalog/kafkatopics.yaml",
			old: "partitions:", new: "partitons:",
			refused: "KafkaTopic/", answer: "unknown field",
		},
		{
			name: "privileged container", file: "checkout/deployment.yaml",
			old: "privileged: false", new: "privileged: true",
			refused: "Deployment/checkout", pod: true, answer: "privileged",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(repoRoot(t), "deploy", "k8s")
			if tc.file != "" {
				dir = plant(t, dir, tc.file, tc.old, tc.new)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			res, err := deploycheck.Run(ctx, deploycheck.Config{Tools: tools, Manifests: dir})
			if err != nil {
				t.Fatalf("the check did not run: %v", err)
			}
			t.Log("\n" + res.Summary())
			if tc.refused == "" {
				if !res.OK() {
					t.Fatal("the manifests were refused")
				}
				return
			}
			if res.OK() {
				t.Fatalf("%s: the planted mistake passed", tc.name)
			}
			found := false
			if tc.pod {
				for _, p := range res.Pods {
					if !p.Passed {
						found = found || (p.Owner == tc.refused && strings.Contains(p.Answer, tc.answer))
					}
				}
				if res.Accepted != res.Objects {
					t.Errorf("refused objects %v, want only the pod template refused", res.Refused)
				}
			} else {
				for _, r := range res.Refused {
					found = found || (strings.HasPrefix(r, tc.refused) && strings.Contains(r, tc.answer))
				}
				if len(res.Refused) != 1 {
					t.Errorf("refused %v, want only %s", res.Refused, tc.refused)
				}
			}
			if !found {
				t.Errorf("%s not refused with %q", tc.refused, tc.answer)
			}
		})
	}
}

// plant copies the kustomization dir and replaces old's first occurrence in file with new.
func plant(t *testing.T, dir, file, old, new string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if rel == filepath.FromSlash(file) {
			if !strings.Contains(string(b), old) {
				t.Fatalf("%s has no %q to change", file, old)
			}
			b = []byte(strings.Replace(string(b), old, new, 1))
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

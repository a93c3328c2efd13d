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
// It starts five API servers (about a minute), so it runs only with DEPLOY_CHECK=1, after `make
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
		name    string
		file    string
		changes []string // the planted change: pairs of old, new; old's first occurrence in file becomes new
		refused string   // the refused object, or the refused pod template with pod set
		pod     bool
		answer  string // part of the server's answer
	}{
		{name: "the manifests pass"},
		{
			name: "misspelled field", file: "gateway/deployment.yaml",
			changes: []string{"readOnlyRootFilesystem: true", "readOnlyRootFileSystem: true"},
			refused: "Deployment/gateway", answer: "unknown field",
		},
		{
			name: "misspelled field of a CRD", file: "catalog/kafkatopics.yaml",
			changes: []string{"partitions:", "partitons:"},
			refused: "KafkaTopic/", answer: "unknown field",
		},
		{
			name: "misspelled field of a Kafka ACL", file: "auth/kafkauser.yaml",
			changes: []string{"patternType: literal", "patternTyp: literal"},
			refused: "KafkaUser/podium-auth", answer: "unknown field",
		},
		{
			name: "privileged container", file: "checkout/deployment.yaml",
			// Privileged needs privilege escalation allowed, else the Pod is invalid before
			// PodSecurity sees it.
			changes: []string{"privileged: false", "privileged: true", "allowPrivilegeEscalation: false", "allowPrivilegeEscalation: true"},
			refused: "Deployment/checkout", pod: true, answer: `violates PodSecurity "restricted:latest": privileged`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(repoRoot(t), "deploy", "k8s")
			if tc.file != "" {
				dir = plant(t, dir, tc.file, tc.changes...)
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

// plant copies the kustomization dir and, in file, replaces the first occurrence of each old of
// changes (old, new, old, new, ...) with its new.
func plant(t *testing.T, dir, file string, changes ...string) string {
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
			for i := 0; i+1 < len(changes); i += 2 {
				if !strings.Contains(string(b), changes[i]) {
					t.Fatalf("%s has no %q to change", file, changes[i])
				}
				b = []byte(strings.Replace(string(b), changes[i], changes[i+1], 1))
			}
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

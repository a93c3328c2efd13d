package deploy_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/podiumhq/podium/deploy/internal/deploycheck"
)

// TestManifestsConformToTheKubernetesSchemas has kubeconform (installed by make tools) validate the
// rendered manifests, strictly and offline, against the schemas of the Kubernetes version the
// Makefile pins (from k8s.io/kubernetes's OpenAPI document) and of the Strimzi CRDs, and refuse
// copies with one mistake planted each. make deploy-check runs the same validation before its API
// server.
func TestManifestsConformToTheKubernetesSchemas(t *testing.T) {
	root := repoRoot(t)
	tools := filepath.Join(root, "bin", "tools")
	if _, err := os.Stat(filepath.Join(tools, "kubeconform")); err != nil {
		t.Fatalf("bin/tools/kubeconform missing: run make tools (%v)", err)
	}
	version := pinnedKubeVersion(t, root)
	for _, tc := range []struct {
		name, file string
		changes    []string
		refused    string // the refused object
		answer     string // part of kubeconform's message
	}{
		{name: "the manifests conform"},
		{
			name: "misspelled field", file: "gateway/deployment.yaml",
			changes: []string{"readOnlyRootFilesystem: true", "readOnlyRootFileSystem: true"},
			refused: "Deployment/gateway", answer: "readOnlyRootFileSystem",
		},
		{
			name: "a number where the schema wants one", file: "checkout/pdb.yaml",
			changes: []string{"maxUnavailable: 1", "maxUnavailable: [1]"},
			refused: "PodDisruptionBudget/checkout", answer: "maxUnavailable",
		},
		{
			name: "misspelled field of a Kafka ACL", file: "auth/kafkauser.yaml",
			changes: []string{"patternType: literal", "patternTyp: literal"},
			refused: "KafkaUser/podium-auth", answer: "patternTyp",
		},
		{
			name: "SASL mechanism Strimzi does not know", file: "webhooks/kafkauser.yaml",
			changes: []string{"type: scram-sha-512", "type: scram-sha-1"},
			refused: "KafkaUser/podium-webhooks", answer: "/spec/authentication/type",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(root, "deploy", "k8s")
			if tc.file != "" {
				dir = plant(t, dir, tc.file, tc.changes...)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			c, err := deploycheck.Conformance(ctx, tools, version, dir)
			if err != nil {
				t.Fatalf("kubeconform did not run: %v", err)
			}
			if c.Schemas < 100 {
				t.Errorf("%d schemas written, want every kind of Kubernetes %s", c.Schemas, version)
			}
			if tc.refused == "" {
				if len(c.Refused) != 0 || c.Valid == 0 {
					t.Fatalf("%d valid, refused %v", c.Valid, c.Refused)
				}
				t.Logf("%d objects conform to %d schemas of Kubernetes %s and the CRDs", c.Valid, c.Schemas, version)
				return
			}
			if len(c.Refused) != 1 || !strings.HasPrefix(c.Refused[0], tc.refused+":") || !strings.Contains(c.Refused[0], tc.answer) {
				t.Fatalf("refused %v, want only %s mentioning %q", c.Refused, tc.refused, tc.answer)
			}
		})
	}
}

// pinnedKubeVersion is the Makefile's KUBE_VERSION, the version deploy-check's tools are built at.
func pinnedKubeVersion(t *testing.T, root string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^KUBE_VERSION\s*:=\s*(v\S+)`).FindSubmatch(b)
	if m == nil {
		t.Fatal("no KUBE_VERSION in the Makefile")
	}
	return string(m[1])
}

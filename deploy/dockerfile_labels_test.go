package deploy_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// ociLabels are the OCI annotations every image carries and the build argument each takes.
var ociLabels = map[string]string{
	"org.opencontainers.image.title":    "SERVICE",
	"org.opencontainers.image.source":   "SOURCE",
	"org.opencontainers.image.revision": "COMMIT",
	"org.opencontainers.image.version":  "VERSION",
	"org.opencontainers.image.created":  "CREATED",
	"org.opencontainers.image.licenses": "LICENSES",
}

var labelPair = regexp.MustCompile(`(\S+)=("[^"]*"|\S+)`)

// TestDockerfileLabelsTheImage checks that the final stage sets every OCI label from a build
// argument it declares, so a release stamps its revision, version and time on the image.
func TestDockerfileLabelsTheImage(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot(t), "deploy", "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	stages := parseDockerfile(string(data))
	final := stages[len(stages)-1]
	declared := map[string]bool{}
	for _, a := range final.args("ARG") {
		name, _, _ := strings.Cut(a, "=")
		declared[name] = true
	}
	labels := map[string]string{}
	for _, l := range final.args("LABEL") {
		for _, m := range labelPair.FindAllStringSubmatch(l, -1) {
			labels[m[1]] = strings.Trim(m[2], `"`)
		}
	}
	for label, arg := range ociLabels {
		value, ok := labels[label]
		if !ok {
			t.Errorf("the final stage must LABEL %s", label)
			continue
		}
		if !strings.Contains(value, "${"+arg+"}") || !declared[arg] {
			t.Errorf("LABEL %s=%q must take ${%s}, an ARG of the final stage", label, value, arg)
		}
	}
}

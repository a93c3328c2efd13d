package deploy_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const finalImage = "gcr.io/distroless/static-debian12:nonroot@sha256:"

// stage is one FROM section of a Dockerfile.
type stage struct {
	from, name string
	ins        [][2]string // instruction (upper case) and its arguments
}

// parseDockerfile splits a Dockerfile into stages, joining continued lines and dropping comments.
func parseDockerfile(text string) []stage {
	var stages []stage
	var cur strings.Builder
	flush := func() {
		line := strings.TrimSpace(cur.String())
		cur.Reset()
		if line == "" {
			return
		}
		cmd, args, _ := strings.Cut(line, " ")
		cmd, args = strings.ToUpper(cmd), strings.TrimSpace(args)
		if cmd == "FROM" {
			f := strings.Fields(args)
			s := stage{from: f[0]}
			if len(f) == 3 && strings.EqualFold(f[1], "AS") {
				s.name = f[2]
			}
			stages = append(stages, s)
			return
		}
		if len(stages) > 0 {
			stages[len(stages)-1].ins = append(stages[len(stages)-1].ins, [2]string{cmd, args})
		}
	}
	for _, raw := range strings.Split(text, "\n") {
		line := strings.TrimSpace(raw)
		if strings.HasPrefix(line, "#") {
			continue
		}
		if cont, ok := strings.CutSuffix(line, "\\"); ok {
			cur.WriteString(cont + " ")
			continue
		}
		cur.WriteString(line)
		flush()
	}
	flush()
	return stages
}

func (s stage) args(cmd string) []string {
	var out []string
	for _, in := range s.ins {
		if in[0] == cmd {
			out = append(out, in[1])
		}
	}
	return out
}

// goBuild matches one `go build` with its environment and flags, up to its package path.
var goBuild = regexp.MustCompile(`((?:\w+=\S+\s+)*)go build\s+(.*?)\s(\./\S+)`)

// stamp is the package whose Version and Commit a build sets (`<svc> version`).
const stamp = "github.com/podiumhq/podium/libs/service"

// servicePackage is the package the image's build stage compiles: the one SERVICE names.
const servicePackage = "./services/${SERVICE}/cmd/${SERVICE}"

// TestDockerfile checks the one image every service is built from, SERVICE naming it.
func TestDockerfile(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot(t), "deploy", "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	stages := parseDockerfile(string(data))
	if len(stages) < 2 {
		t.Fatalf("want a build stage and a final stage, got %d stages", len(stages))
	}
	for _, s := range stages {
		if !pinned(s.from) {
			t.Errorf("FROM %s must be pinned to a tag other than latest and its digest", s.from)
		}
	}
	build, final := stages[0], stages[len(stages)-1]
	if want := "golang:" + goWorkVersion(t) + "-"; !strings.HasPrefix(build.from, want) || build.name == "" {
		t.Errorf("build stage FROM %s, want %s<variant>@sha256:... AS <name>: the go version of go.work", build.from, want)
	}
	if !slices.Equal(build.args("ARG"), []string{"SERVICE", "VERSION=dev", "COMMIT="}) {
		t.Errorf("build stage ARG %v, want SERVICE without a default, VERSION=dev, COMMIT=", build.args("ARG"))
	}
	if !slices.Contains(build.args("COPY"), ". .") {
		t.Error("the build stage must COPY . . (the whole workspace, go.work at the root)")
	}
	outputs := builtBinaries(t, build)
	if !strings.HasPrefix(final.from, finalImage) {
		t.Errorf("final stage FROM %s, want %s<digest>", final.from, finalImage)
	}
	copied := map[string]string{} // destination -> source
	for _, c := range final.args("COPY") {
		if f := strings.Fields(c); len(f) == 3 && f[0] == "--from="+build.name {
			copied[f[2]] = f[1]
		}
	}
	var entry []string
	if e := final.args("ENTRYPOINT"); len(e) == 1 {
		_ = json.Unmarshal([]byte(e[0]), &entry)
	}
	if len(entry) != 1 || copied[entry[0]] != outputs[servicePackage] {
		t.Errorf("ENTRYPOINT %v must be the exec form of the binary built from %s", entry, servicePackage)
	}
	if copied["/healthcheck"] == "" || copied["/healthcheck"] != outputs["./deploy/cmd/healthcheck"] {
		t.Error("the final stage must hold /healthcheck built from ./deploy/cmd/healthcheck (compose healthchecks run it)")
	}
	if u := final.args("USER"); len(u) != 1 || !slices.Contains([]string{"nonroot", "nonroot:nonroot", "65532", "65532:65532"}, u[0]) {
		t.Errorf("final stage USER %v, want nonroot", u)
	}
	if e := final.args("EXPOSE"); !slices.Equal(e, []string{"8080"}) {
		t.Errorf("EXPOSE %v, want 8080", e)
	}
}

// builtBinaries maps each package the build stage compiles to its output path, checking that
// every build is static, trimmed and stripped.
func builtBinaries(t *testing.T, build stage) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, run := range build.args("RUN") {
		for _, m := range goBuild.FindAllStringSubmatch(run, -1) {
			env, flags, pkg := m[1], m[2], m[3]
			if !strings.Contains(env, "CGO_ENABLED=0") || !strings.Contains(flags, "-trimpath") || !strings.Contains(flags, `-ldflags="-s -w`) {
				t.Errorf(`%s must be built with CGO_ENABLED=0, -trimpath and -ldflags="-s -w ..."`, pkg)
			}
			if pkg == servicePackage && !(strings.Contains(flags, stamp+".Version=${VERSION}") && strings.Contains(flags, stamp+".Commit=${COMMIT}")) {
				t.Errorf("%s must be stamped with -X %s.Version=${VERSION} and .Commit=${COMMIT}", pkg, stamp)
			}
			if f := strings.Fields(flags); slices.Index(f, "-o") >= 0 && slices.Index(f, "-o")+1 < len(f) {
				out[pkg] = f[slices.Index(f, "-o")+1]
			}
		}
	}
	for _, pkg := range []string{servicePackage, "./deploy/cmd/healthcheck"} {
		if out[pkg] == "" {
			t.Errorf("the build stage must `go build -o <path> %s`", pkg)
		}
	}
	return out
}

func TestDockerignore(t *testing.T) {
	root := repoRoot(t)
	data, err := os.ReadFile(filepath.Join(root, ".dockerignore"))
	if err != nil {
		t.Fatal(err)
	}
	var patterns []string
	for _, line := range strings.Split(string(data), "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			patterns = append(patterns, strings.TrimSuffix(line, "/"))
		}
	}
	for _, want := range []string{".git", "bin", ".run", "**/*.test"} {
		if !slices.Contains(patterns, want) {
			t.Errorf(".dockerignore: want %s excluded", want)
		}
	}
	needed := []string{"go.work", "go.work.sum"}
	for _, dir := range workspaceModules(t, root) {
		needed = append(needed, dir+"/go.mod", dir+"/go.sum")
	}
	for _, p := range patterns {
		for _, path := range needed {
			if ignores(p, path) {
				t.Errorf(".dockerignore: %q drops %s, which the workspace build needs", p, path)
			}
		}
	}
}

// ignores approximates .dockerignore matching: p matches path or one of its parent folders,
// anchored at the root unless it starts with **/.
func ignores(p, path string) bool {
	anywhere := strings.HasPrefix(p, "**/")
	p = strings.TrimPrefix(p, "**/")
	for dir := path; dir != "." && dir != "/"; dir = filepath.Dir(dir) {
		if ok, _ := filepath.Match(p, dir); ok {
			return true
		}
		if ok, _ := filepath.Match(p, filepath.Base(dir)); ok && anywhere {
			return true
		}
	}
	return false
}

// workspaceModules lists the module folders of go.work's use directives.
func workspaceModules(t *testing.T, root string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "go.work"))
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, m := range regexp.MustCompile(`(?m)^\s*(?:use\s+)?(\./\S+)\s*$`).FindAllStringSubmatch(string(data), -1) {
		dirs = append(dirs, filepath.Clean(m[1]))
	}
	if !slices.Contains(dirs, "deploy") {
		t.Error("go.work: deploy is not a workspace module (cd /work/main && go work use ./deploy)")
	}
	return dirs
}

// goWorkVersion is the go version go.work requires, which the build image must carry.
func goWorkVersion(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot(t), "go.work"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^go (\S+)$`).FindSubmatch(b)
	if m == nil {
		t.Fatal("go.work has no go line")
	}
	return string(m[1])
}

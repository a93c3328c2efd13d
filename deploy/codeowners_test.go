package deploy_test

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const platformTeam = "@podiumhq/platform-team"

// codeOwner is one rule of .github/CODEOWNERS.
type codeOwner struct {
	pattern string
	owners  []string
}

// loadCodeOwners reads .github/CODEOWNERS. It uses two pattern forms only, "*" and an anchored
// folder ("/a/b/"), which ownersOf matches exactly as GitHub does; any other form fails.
func loadCodeOwners(t *testing.T, root string) []codeOwner {
	t.Helper()
	f, err := os.Open(filepath.Join(root, ".github", "CODEOWNERS"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rules []codeOwner
	s := bufio.NewScanner(f)
	for s.Scan() {
		fields := strings.Fields(s.Text())
		if len(fields) == 0 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		rule := codeOwner{pattern: fields[0], owners: fields[1:]}
		folder := strings.Trim(rule.pattern, "/")
		switch {
		case len(rule.owners) == 0:
			t.Errorf("CODEOWNERS: %s has no owner", rule.pattern)
		case rule.pattern == "*":
		case !strings.HasPrefix(rule.pattern, "/") || !strings.HasSuffix(rule.pattern, "/") || strings.ContainsAny(folder, "*?[!"):
			t.Errorf("CODEOWNERS: %s: use * or an anchored folder /a/b/", rule.pattern)
		default:
			if fi, err := os.Stat(filepath.Join(root, folder)); err != nil || !fi.IsDir() {
				t.Errorf("CODEOWNERS: %s is not a folder of the repository", rule.pattern)
			}
		}
		for _, o := range rule.owners {
			if !strings.HasPrefix(o, "@podiumhq/") || !strings.HasSuffix(o, "-team") {
				t.Errorf("CODEOWNERS: %s: owner %s is not a @podiumhq team", rule.pattern, o)
			}
		}
		rules = append(rules, rule)
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	return rules
}

// ownersOf returns the owners of a file (a path relative to the root): the last rule matching it.
func ownersOf(rules []codeOwner, file string) []string {
	var owners []string
	for _, r := range rules {
		if r.pattern == "*" || strings.HasPrefix(file, strings.TrimPrefix(r.pattern, "/")) {
			owners = r.owners
		}
	}
	return owners
}

// TestEveryServiceHasItsOwners: every folder under services/ is its team's, its event
// contracts included; every service folder under deploy/k8s is its team's and the platform
// team's; the libraries, the rest of deploy and the ADRs are the platform team's.
func TestEveryServiceHasItsOwners(t *testing.T) {
	root := repoRoot(t)
	rules := loadCodeOwners(t, root)
	check := func(file string, want ...string) {
		t.Helper()
		if got := ownersOf(rules, file); !sameOwners(got, want) {
			t.Errorf("%s is owned by %v, want %v", file, got, want)
		}
	}
	for _, dir := range subfolders(t, filepath.Join(root, "services")) {
		team := "@podiumhq/" + dir + "-team"
		check("services/"+dir+"/go.mod", team)
		check("services/"+dir+"/events/x.schema.json", team)
	}
	for _, dir := range subfolders(t, filepath.Join(root, "deploy", "k8s")) {
		check("deploy/k8s/"+dir+"/deployment.yaml", "@podiumhq/"+dir+"-team", platformTeam)
	}
	for _, file := range []string{"libs/broker/broker.go", "deploy/k8s/kustomization.yaml", "deploy/go.mod", "docs/adr/0005-messaging.md", "go.work", ".github/CODEOWNERS"} {
		check(file, platformTeam)
	}
}

func subfolders(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	if len(out) == 0 {
		t.Fatalf("%s has no folders", dir)
	}
	return out
}

func sameOwners(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

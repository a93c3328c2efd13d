package cli_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/podiumhq/podium/libs/admin"
	"github.com/podiumhq/podium/libs/admin/admintest"
	"github.com/podiumhq/podium/libs/safetext"
	"github.com/podiumhq/podium/libs/service"
	"github.com/podiumhq/podium/services/catalog/internal/catalogtest"
	"github.com/podiumhq/podium/services/catalog/internal/cli"
	"github.com/podiumhq/podium/services/catalog/internal/domain"
)

const org = "org_cli"

func run(t *testing.T, env *catalogtest.Env, token string, args ...string) (string, error) {
	t.Helper()
	return admintest.Operator{Commands: cli.Commands, URL: env.URL + "/"}.Run(t, token, args...)
}

func mustRun(t *testing.T, env *catalogtest.Env, args ...string) string {
	t.Helper()
	return admintest.Operator{Commands: cli.Commands, URL: env.URL + "/"}.MustRun(t, catalogtest.OperatorToken, args...)
}

var find = admintest.Find

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestImportAndList(t *testing.T) {
	env := catalogtest.Start(t, catalogtest.Options{})
	summer := writeFile(t, "summer.yaml", catalogtest.Demo(t, "summer-throwdown"))

	out := mustRun(t, env, "import", "--organizer", org, "--file", summer)
	id := find(t, out, `^Created event (evt_\w+) \(summer-throwdown\): Summer Throwdown, PUBLISHED, public, version 1\.\n`)
	find(t, out, `\nCategories 3 \(tiers 3\), form fields 3, waivers 2, sponsors 1, supplements 3, promocodes 2, fees 1\.\n`)
	find(t, out, `\nPreview token: prv_\w{32}\n$`)
	out = mustRun(t, env, "import", "--organizer", org, "--file", summer)
	find(t, out, `^Unchanged event `+id+` \(summer-throwdown\).*version 1\.`)
	edited := writeFile(t, "summer-edited.yaml", strings.Replace(catalogtest.Demo(t, "summer-throwdown"), "private: false", "private: true", 1))
	out = mustRun(t, env, "import", "--organizer", org, "--file", edited)
	find(t, out, `^Updated event `+id+` \(summer-throwdown\): Summer Throwdown, PUBLISHED, private, version 2\.`)

	jsonFile := writeFile(t, "draft.json", `{"externalId":"draft","name":"Draft","status":"DRAFT","startDate":"2028-01-01",
		"endDate":"2028-01-01","timezone":"UTC","currency":"USD"}`)
	out = mustRun(t, env, "import", "--organizer", org, "--file", jsonFile, "--json")
	var created map[string]any
	if err := json.Unmarshal([]byte(out), &created); err != nil || created["externalId"] != "draft" || created["currency"] != "USD" {
		t.Fatalf("--json output: %v\n%s", err, out)
	}

	out = mustRun(t, env, "events", "list", "--organizer", org)
	find(t, out, `(?m)^ID\s+EXTERNAL ID\s+NAME\s+STATUS\s+PRIVATE\s+DATES\s+VERSION\s+UPDATED$`)
	find(t, out, `(?m)^`+id+`\s+summer-throwdown\s+Summer Throwdown\s+PUBLISHED\s+true\s+2027-06-12\.\.2027-06-13\s+2\s+\S+Z$`)
	find(t, out, `(?m)^evt_\w+\s+draft\s+Draft\s+DRAFT\s+false\s+2028-01-01\.\.2028-01-01\s+1\s+\S+Z$`)
	find(t, out, `Total: 2 \(showing 1-2\)`)
	out = mustRun(t, env, "events", "list", "--organizer", org, "--limit", "1", "--json")
	var page struct {
		Data  []map[string]any `json:"data"`
		Total int              `json:"total"`
	}
	if err := json.Unmarshal([]byte(out), &page); err != nil || page.Total != 2 || len(page.Data) != 1 {
		t.Fatalf("events list --json: %v\n%s", err, out)
	}
	if out := mustRun(t, env, "events", "list", "--organizer", "org_nobody"); !strings.Contains(out, "Total: 0\n") {
		t.Fatalf("empty list:\n%s", out)
	}
}

// printed is what the catalog command prints for err.
func printed(err error) string { return "catalog: " + admin.Explain(err) + "\n" }

func TestCommandErrors(t *testing.T) {
	env := catalogtest.Start(t, catalogtest.Options{})
	// A file with problems is refused before it is sent, every problem on a line of its own.
	bad := writeFile(t, "bad.yaml", catalogtest.Event("bad", "Bad", "DRAFT", false,
		"categories: [{key: a, name: A, basePrice: 1, gender: ANY}, {key: b, name: B, basePrice: 1, gender: ALL}]"))
	_, err := run(t, env, catalogtest.OperatorToken, "import", "--organizer", org, "--file", bad)
	if got, want := printed(err), "catalog: the event file has problems:\n"+
		"  categories[0].gender must be one of OPEN, MALE, FEMALE, MIXED\n"+
		"  categories[1].gender must be one of OPEN, MALE, FEMALE, MIXED\n"; got != want {
		t.Fatalf("invalid file printed\n%s\nwant\n%s", got, want)
	}
	if out := mustRun(t, env, "events", "list", "--organizer", org); !strings.Contains(out, "Total: 0\n") {
		t.Fatalf("a refused file was imported:\n%s", out)
	}
	noID := writeFile(t, "noid.yaml", "name: x\n")
	if _, err := run(t, env, catalogtest.OperatorToken, "import", "--organizer", org, "--file", noID); !strings.Contains(printed(err), "\n  externalId") {
		t.Fatalf("file without externalId: %v", err)
	}
	// The admin API's refusals, a conflict as a wrong token, print the request and what the API
	// answered, on one line.
	places := writeFile(t, "places.yaml", catalogtest.Event("places", "Places", "DRAFT", false, "categories: [{key: a, name: A, basePrice: 1}]"))
	out := mustRun(t, env, "import", "--organizer", org, "--file", places, "--json")
	var created struct {
		ID         string
		Categories []struct{ ID string }
	}
	if err := json.Unmarshal([]byte(out), &created); err != nil || len(created.Categories) != 1 {
		t.Fatalf("import: %v\n%s", err, out)
	}
	taken := domain.PlacesChangedV1{EventID: created.ID, CategoryID: created.Categories[0].ID, Confirmed: 1, Version: 1}.Current()
	if err := env.Service.ApplyPlaces(t.Context(), taken); err != nil {
		t.Fatal(err)
	}
	withoutA := writeFile(t, "places.yaml", catalogtest.Event("places", "Places", "DRAFT", false, "categories: [{key: b, name: B, basePrice: 1}]"))
	_, err = run(t, env, catalogtest.OperatorToken, "import", "--organizer", org, "--file", withoutA)
	if got := printed(err); !strings.HasPrefix(got, "catalog: admin API PUT /admin/organizers/"+org+"/events/places answered 409: categories: category \"a\"") ||
		strings.Count(got, "\n") != 1 {
		t.Fatalf("conflict printed %q", got)
	}
	_, err = run(t, env, "wrong-token", "events", "list", "--organizer", org)
	if got := printed(err); !strings.HasPrefix(got, "catalog: admin API GET /admin/organizers/"+org+"/events") ||
		!strings.HasSuffix(got, " answered 401: the operator token is invalid\n") {
		t.Fatalf("wrong token printed %q", got)
	}
	if _, err := run(t, env, catalogtest.OperatorToken, "import", "--organizer", org, "--file", "/nonexistent.yaml"); err == nil ||
		!strings.Contains(err.Error(), "read event file") {
		t.Fatalf("missing file: %v", err)
	}
	for _, args := range [][]string{
		{}, {"events"}, {"events", "delete"}, {"import"}, {"import", "--organizer", org}, {"import", "--file", bad},
		{"events", "list"}, {"events", "list", "--organizer", org, "extra"}, {"import", "--nope"},
	} {
		if _, err := run(t, env, catalogtest.OperatorToken, args...); !errors.Is(err, service.ErrUsage) {
			t.Errorf("catalog %s: %v, want a usage error", strings.Join(args, " "), err)
		}
	}
}

// TestListingsEscapeNamesStoredRaw: an event name written before names were checked, holding
// a line break, an ANSI sequence and a direction override, prints as one escaped line of the
// list and escaped in the JSON; a file with such a name is refused before it is sent.
func TestListingsEscapeNamesStoredRaw(t *testing.T) {
	env := catalogtest.Start(t, catalogtest.Options{})
	draft := writeFile(t, "draft.yaml", catalogtest.Event("draft", "Draft", "DRAFT", false, ""))
	mustRun(t, env, "import", "--organizer", org, "--file", draft)
	forged := "Draft\nevt_forged  winter  Winter  PUBLISHED\x1b[2K\u202e"
	if _, err := env.Pool.Exec(t.Context(), `UPDATE events SET name = $1 WHERE external_id = 'draft'`, forged); err != nil {
		t.Fatal(err)
	}

	out := mustRun(t, env, "events", "list", "--organizer", org)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 3 || !regexp.MustCompile(`\sdraft\s+`+regexp.QuoteMeta(strconv.Quote(forged))+`\s+DRAFT\s`).MatchString(lines[1]) {
		t.Fatalf("one event must print as one line, its name escaped:\n%s", out)
	}
	out = mustRun(t, env, "events", "list", "--organizer", org, "--json")
	if strings.ContainsAny(out, "\x1b\u202e") || !strings.Contains(out, `PUBLISHED\u001b[2K\u202e"`) {
		t.Fatalf("--json printed control characters unescaped: %q", out)
	}

	bad := writeFile(t, "bad.yaml", catalogtest.Event("bad", `"Bad\u202e"`, "DRAFT", false, ""))
	_, err := run(t, env, catalogtest.OperatorToken, "import", "--organizer", org, "--file", bad)
	if got, want := printed(err), "catalog: the event file has problems:\n  name "+safetext.Rule+"\n"; got != want {
		t.Fatalf("a name with a direction override printed\n%s\nwant\n%s", got, want)
	}
}

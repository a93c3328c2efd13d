package bench

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/podiumhq/podium/libs/outbox"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/registration/migrations"
)

// registrationQueries is where the registration service keeps the statements its creates run.
const registrationQueries = "../../services/registration/internal/adapters/store/queries"

// pgbenchArguments is how pgbench/create.sql gives each statement of a registration create
// what the service passes as arguments; nothing else of the statements may differ.
var pgbenchArguments = map[string][][2]string{
	"GetPlacesMany": {{"sqlc.arg(keys)::json", placesOfTheTransaction}},
	"InsertOrders":  {{"sqlc.arg(rows)::json", "(SELECT replace(orders, '~', :r1 || '_' || :r2) FROM pgbench_creates WHERE c = :c)::json"}},
	"InsertRegistrations": {{"sqlc.arg(rows)::json",
		"(SELECT replace(registrations, '~', :r1 || '_' || :r2) FROM pgbench_creates WHERE c = :c)::json"}},
	"InsertTickets":  {{"sqlc.arg(rows)::json", "(SELECT replace(tickets, '~', :r1 || '_' || :r2) FROM pgbench_creates WHERE c = :c)::json"}},
	"TakePlacesMany": {{"sqlc.arg(takes)::json", "(SELECT takes FROM pgbench_creates WHERE c = :c)::json"}},
	"AnnouncePlaces": {
		{"sqlc.arg(topic)::text", "'bench.pgbench.v1'"},
		{"sqlc.arg(occurred_at)::text", "now()::text"},
		{"sqlc.arg(messages)::json", `'[{"event_id": "evt_pgbench", "livemode": true, "headers": {"ce_type": "podium.bench.places.v2"}}]'`},
		{"sqlc.arg(keys)::json", placesOfTheTransaction},
	},
}

// placesOfTheTransaction are the (category, mode) keys of the places a transaction takes.
const placesOfTheTransaction = "(SELECT keys FROM pgbench_creates WHERE c = :c)::json"

// The database's ceiling is only the service's if pgbench runs the service's statements: each
// statement a registration create runs is in pgbench/create.sql as the service writes it, but
// for where its arguments come from.
func TestPgbenchRunsTheStatementsOfRegistrationCreates(t *testing.T) {
	queries := namedQueries(t, registrationQueries)
	script := statements(string(pgbenchCreate))
	for name, args := range pgbenchArguments {
		query, ok := queries[name]
		if !ok {
			t.Errorf("registration has no query %s", name)
			continue
		}
		for _, arg := range args {
			if !strings.Contains(query, arg[0]) {
				t.Errorf("%s takes no %s", name, arg[0])
			}
			query = strings.ReplaceAll(query, arg[0], arg[1])
		}
		if !slices.Contains(script, normalizedSQL(query)) {
			t.Errorf("pgbench/create.sql does not run %s as registration does; it should hold:\n%s", name, query)
		}
	}
}

// The scripts run against registration's schema as its migrations leave it, and each
// transaction stores batch creates: their orders, registrations and tickets, the places they
// take and one places message in the outbox.
func TestPgbenchScriptsStoreTheirCreates(t *testing.T) {
	bin, err := exec.LookPath("pgbench")
	if err != nil {
		t.Fatal("pgbench is not installed (it comes with PostgreSQL's client)")
	}
	ctx := t.Context()
	url := testkit.DatabaseURL(t, migrations.Set(), outbox.Migrations())
	vars := []string{"-D", "batch=4", "-D", "categories=3"}
	if _, err := runPgbench(ctx, bin, pgbenchRows, nil, append(vars, "-t", "1", url)...); err != nil {
		t.Fatal(err)
	}
	if _, err := runPgbench(ctx, bin, pgbenchCreate, nil, append(vars, "-M", "prepared", "-t", "5", url)...); err != nil {
		t.Fatal(err)
	}
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	counts := map[string]string{
		"orders":        "SELECT count(*) FROM orders",
		"registrations": "SELECT count(*) FROM registrations",
		"tickets":       "SELECT count(*) FROM tickets",
		"places taken":  "SELECT coalesce(sum(confirmed), 0) FROM places",
		"messages":      "SELECT count(*) FROM outbox WHERE topic = 'bench.pgbench.v1'",
	}
	want := map[string]int{"orders": 20, "registrations": 20, "tickets": 20, "places taken": 20, "messages": 5}
	for what, query := range counts {
		var n int
		if err := conn.QueryRow(ctx, query).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != want[what] {
			t.Errorf("%s: %d, want %d", what, n, want[what])
		}
	}
}

// namedQueries reads the sqlc queries of the .sql files in dir by name, comments left out.
func namedQueries(t *testing.T, dir string) map[string]string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.sql"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no queries in %s: %v", dir, err)
	}
	queries := map[string]string{}
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, block := range queryName.Split(string(b), -1)[1:] {
			name, body, _ := strings.Cut(block, "\n")
			queries[strings.Fields(name)[0]] = withoutComments(body)
		}
	}
	return queries
}

var queryName = regexp.MustCompile(`(?m)^-- name: `)

// statements are the SQL statements of a pgbench script, each normalized.
func statements(script string) []string {
	var all []string
	for stmt := range strings.SplitSeq(withoutComments(script), ";") {
		if stmt := normalizedSQL(stmt); stmt != "" {
			all = append(all, stmt)
		}
	}
	return all
}

// normalizedSQL is a statement without comments, its end or runs of white space.
func normalizedSQL(stmt string) string {
	return strings.Join(strings.Fields(strings.TrimSuffix(strings.TrimSpace(withoutComments(stmt)), ";")), " ")
}

// withoutComments is sql without its comment lines and pgbench's meta-commands.
func withoutComments(sql string) string {
	var b bytes.Buffer
	for line := range strings.Lines(sql) {
		if trimmed := strings.TrimSpace(line); !strings.HasPrefix(trimmed, "--") && !strings.HasPrefix(trimmed, `\`) {
			b.WriteString(line)
		}
	}
	return b.String()
}

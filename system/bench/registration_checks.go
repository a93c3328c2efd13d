package bench

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/prometheus/procfs"
)

// oversell counts, from registration's database, the registrations that hold a place in each
// category of an event (live registrations of pending or completed orders) and compares them
// with the ledger and the category's quota.
type oversell struct {
	categories int
	live       int // registrations holding a place
	ledger     int // confirmed + held in the ledger
	over       int // places beyond a quota, summed over the categories
	mismatched int // categories whose ledger differs from their registrations
	fullest    string
}

func (o oversell) String() string {
	verdictText := "none over its quota"
	if o.over > 0 || o.mismatched > 0 {
		verdictText = fmt.Sprintf("OVERSOLD by %d places, %d categories whose ledger differs from their registrations", o.over, o.mismatched)
	}
	return fmt.Sprintf("oversell check (database): %d categories, %d registrations holding places, ledger %d, %s (fullest %s)",
		o.categories, o.live, o.ledger, verdictText, o.fullest)
}

// checkOversell reads the oversell check of an event.
func checkOversell(ctx context.Context, dbURL, eventID string) (oversell, error) {
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		return oversell{}, fmt.Errorf("bench: oversell check: %w", err)
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, `
		SELECT p.category_id, p.confirmed + p.held, p.quota, coalesce(r.live, 0)
		FROM places p
		LEFT JOIN (
			SELECT r.category_id, count(*) AS live
			FROM registrations r JOIN orders o ON o.id = r.order_id
			WHERE r.event_id = $1 AND r.cancelled_at IS NULL AND o.status IN ('PENDING', 'COMPLETED')
			GROUP BY r.category_id
		) r ON r.category_id = p.category_id
		WHERE p.event_id = $1`, eventID)
	if err != nil {
		return oversell{}, fmt.Errorf("bench: oversell check: %w", err)
	}
	var o oversell
	best := -1.0
	for rows.Next() {
		var cat string
		var taken, live int
		var quota *int
		if err := rows.Scan(&cat, &taken, &quota, &live); err != nil {
			return oversell{}, fmt.Errorf("bench: oversell check: %w", err)
		}
		o.categories++
		o.live += live
		o.ledger += taken
		if taken != live {
			o.mismatched++
		}
		if quota == nil {
			continue
		}
		o.over += max(0, live-*quota, taken-*quota)
		if fill := float64(live) / float64(max(*quota, 1)); fill > best {
			best, o.fullest = fill, fmt.Sprintf("%d/%d", live, *quota)
		}
	}
	return o, rows.Err()
}

// rush is a sold-out rush: workers create into categories of the sold-out event until every
// category is full, each taking the next category in turn. Creates beyond the quotas must be
// refused (409); it reports how many were made and refused.
type rush struct {
	url, key string
	bodies   creates
	workers  int
	// attempts is how many creates are sent in all: the places plus refusals enough for every
	// category to see some.
	attempts int
}

func (r rush) run(ctx context.Context) (made, refused int, err error) {
	create := Target{Method: http.MethodPost, URL: r.url, Headers: map[string]string{"Authorization": "Bearer " + r.key}}
	var sent, ok, full atomic.Int64
	var wg sync.WaitGroup
	var mu sync.Mutex
	var first error
	for range r.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for sent.Add(1) <= int64(r.attempts) && ctx.Err() == nil {
				status, body, err := send(ctx, create, r.bodies.next())
				switch {
				case err == nil && status == http.StatusCreated:
					ok.Add(1)
				case err == nil && status == http.StatusConflict:
					full.Add(1)
				default:
					if err == nil {
						err = fmt.Errorf("status %d: %.200s", status, body)
					}
					mu.Lock()
					if first == nil {
						first = fmt.Errorf("bench: sold-out rush: %w", err)
					}
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	return int(ok.Load()), int(full.Load()), first
}

// databaseProcesses returns the Postgres backends serving the databases of dbURLs (one process
// per connection), named by backendName, to watch their CPU time as a service's.
func databaseProcesses(dbURLs ...string) map[string]int {
	names, out := databaseNames(dbURLs), map[string]int{}
	procs, _ := procfs.AllProcs()
	for _, p := range procs {
		args, err := p.CmdLine()
		title := strings.Join(args, " ")
		if err != nil || !strings.HasPrefix(title, "postgres: ") {
			continue
		}
		for _, db := range names {
			if strings.Contains(title, " "+db+" ") { // postgres: user db host(port) state
				out[backendName(db, p.PID)] = p.PID
			}
		}
	}
	return out
}

// backendName names the backend pid serving database db among the processes watched.
func backendName(db string, pid int) string { return backendsOf(db) + strconv.Itoa(pid) }

// backendsOf is what the names of database db's backends start with.
func backendsOf(db string) string { return "postgres " + db + " " }

// databaseNames are the names of the databases of dbURLs.
func databaseNames(dbURLs []string) []string {
	var names []string
	for _, u := range dbURLs {
		if p, err := url.Parse(u); err == nil {
			names = append(names, strings.TrimPrefix(p.Path, "/"))
		}
	}
	return names
}

// databaseCPU is the CPU time per request of r's Postgres backends serving the databases of
// dbURLs.
func databaseCPU(r Result, dbURLs ...string) time.Duration {
	var sum time.Duration
	names := databaseNames(dbURLs)
	for name := range r.CPU {
		for _, db := range names {
			if strings.HasPrefix(name, backendsOf(db)) {
				sum += r.CPUPerRequest(name)
			}
		}
	}
	return sum
}

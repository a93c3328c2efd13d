package store

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"sort"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	pg "github.com/podiumhq/podium/libs/postgres"
	"github.com/podiumhq/podium/services/registration/internal/adapters/store/db"
	"github.com/podiumhq/podium/services/registration/internal/domain"
)

// Creates into one category serialise on its ledger row: each holds the row lock from its
// conditional take until its commit, and every commit flushes the WAL. To sustain thousands
// of creates per second into one category, concurrent single-category creates are combined:
// requests queue on a lane (chosen by category, so one category is always on the same lane
// and its creates never contend with each other inside the process), and each lane runs one
// transaction at a time for everything queued on it while the previous one ran. A combined
// transaction reads the categories' places left, grants them in arrival order, inserts the
// granted orders, registrations and tickets in one round trip, takes the places with the same
// conditional update as a single create (the last statements, so the ledger rows are locked
// only until the commit), writes one places event per category and commits once.
//
// The conditional update stays the guard against overselling: if another process took places
// in between, it matches no row and the whole batch is tried again. If anything else fails
// (a bib number taken, a hold id reused), each request of the batch is run alone so that it
// gets its own answer.

// lanes is the number of combined transactions one process runs at a time.
const lanes = 4

// maxBatch bounds the requests of one combined transaction.
const maxBatch = 128

// createRequest is one create waiting on a lane.
type createRequest struct {
	ctx      context.Context
	order    domain.Order
	regs     []domain.Registration
	category string
	event    string
	quota    *int
	done     chan error
}

type combiner struct {
	repo  *Repository
	mu    sync.Mutex
	lanes [lanes]*lane
}

type lane struct {
	pending []*createRequest
	running bool
}

func newCombiner(r *Repository) *combiner {
	c := &combiner{repo: r}
	for i := range c.lanes {
		c.lanes[i] = &lane{}
	}
	return c
}

// submit queues req and waits for its outcome. The combined transaction does not stop when
// one caller gives up, so a caller always learns whether its create was committed.
func (c *combiner) submit(req *createRequest) error {
	h := fnv.New32a()
	_, _ = h.Write([]byte(req.category))
	l := c.lanes[h.Sum32()%lanes]
	req.done = make(chan error, 1)
	c.mu.Lock()
	l.pending = append(l.pending, req)
	if !l.running {
		l.running = true
		go c.drain(l)
	}
	c.mu.Unlock()
	return <-req.done
}

// drain runs batches of a lane until nothing is queued.
func (c *combiner) drain(l *lane) {
	for {
		c.mu.Lock()
		n := min(len(l.pending), maxBatch)
		if n == 0 {
			l.running = false
			c.mu.Unlock()
			return
		}
		batch := l.pending[:n:n]
		l.pending = l.pending[n:]
		c.mu.Unlock()
		c.run(batch)
	}
}

// errRetry means another transaction took places between the read and the take.
var errRetry = errors.New("places changed concurrently")

// run executes one batch and answers every request.
func (c *combiner) run(batch []*createRequest) {
	live := batch[:0:0]
	for _, req := range batch {
		if err := req.ctx.Err(); err != nil {
			req.done <- err
			continue
		}
		live = append(live, req)
	}
	if len(live) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(live[0].ctx), 30*time.Second)
	defer cancel()
	for attempt := 0; attempt < 3; attempt++ {
		refused, err := c.tryBatch(ctx, live)
		if err == nil {
			for _, req := range live {
				req.done <- refused[req]
			}
			return
		}
		if !errors.Is(err, errRetry) {
			break
		}
	}
	// Something in the batch failed: run each request alone for its own answer.
	for _, req := range live {
		req.done <- c.repo.createOrder(req.ctx, req.order, req.regs, map[string]*int{req.category: req.quota})
	}
}

// tryBatch runs one combined transaction; it returns the quota errors of the requests that
// found no place (the others were committed).
func (c *combiner) tryBatch(ctx context.Context, batch []*createRequest) (map[*createRequest]error, error) {
	byCat := map[string][]*createRequest{}
	var cats []string
	for _, req := range batch {
		if _, ok := byCat[req.category]; !ok {
			cats = append(cats, req.category)
		}
		byCat[req.category] = append(byCat[req.category], req)
	}
	sort.Strings(cats)
	refused := map[*createRequest]error{}
	err := c.repo.inTx(ctx, func(tx pgx.Tx, q *db.Queries) error {
		clear(refused)
		taken, err := q.GetPlacesMany(ctx, cats)
		if err != nil {
			return fmt.Errorf("read places: %w", err)
		}
		used := map[string]int{}
		for _, p := range taken {
			used[p.CategoryID] = int(p.Confirmed) + int(p.Held)
		}
		var takes []db.TakePlacesBatchParams
		var granted []*createRequest
		for _, cat := range cats {
			reqs := byCat[cat]
			n := len(reqs)
			quota := reqs[len(reqs)-1].quota // the freshest catalog read of the batch
			if quota != nil {
				n = max(0, min(n, *quota-used[cat]))
			}
			for _, req := range reqs[n:] {
				refused[req] = domain.QuotaError(cat, 0)
			}
			if n == 0 {
				continue
			}
			take := db.TakePlacesBatchParams{CategoryID: cat, EventID: reqs[0].event, Quota: quota32(quota)}
			for _, req := range reqs[:n] {
				granted = append(granted, req)
				d := placeDeltas(req.regs, req.order.Status, 1)[0]
				take.Confirmed += int32(d.Confirmed) //nolint:gosec // small
				take.Held += int32(d.Held)           //nolint:gosec // small
			}
			takes = append(takes, take)
		}
		if len(granted) == 0 {
			return nil
		}
		b := &pgx.Batch{}
		for _, req := range granted {
			if err := queueInserts(ctx, b, req.order, req.regs); err != nil {
				return err
			}
		}
		if err := sendBatch(ctx, tx, b); err != nil {
			return err
		}
		// The takes come last (in category order, so ledger rows are locked in one order),
		// all in one round trip, then the places events, all in one more.
		rows := make([]db.Place, 0, len(takes))
		var takeErr error
		q.TakePlacesBatch(ctx, takes).QueryRow(func(_ int, row db.TakePlacesBatchRow, err error) {
			switch {
			case takeErr != nil:
			case pg.IsNoRows(err):
				takeErr = errRetry
			case err != nil:
				takeErr = fmt.Errorf("take places: %w", err)
			default:
				rows = append(rows, db.Place{CategoryID: row.CategoryID, EventID: row.EventID, Confirmed: row.Confirmed, Held: row.Held, Version: row.Version})
			}
		})
		if takeErr != nil {
			return takeErr
		}
		events := queuedTx{Tx: tx, b: &pgx.Batch{}}
		now := time.Now().UTC()
		for _, row := range rows {
			if err := enqueuePlaces(ctx, events, row, now); err != nil {
				return err
			}
		}
		return sendBatch(ctx, tx, events.b)
	})
	return refused, err
}

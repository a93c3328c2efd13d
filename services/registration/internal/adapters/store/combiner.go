package store

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/podiumhq/podium/libs/outbox"
	"github.com/podiumhq/podium/services/registration/internal/adapters/store/db"
	"github.com/podiumhq/podium/services/registration/internal/domain"
)

// Every create writes a few rows, but a transaction of its own would also pay a commit (a WAL
// flush) and, when creates crowd into one category, wait on that category's ledger row until
// the previous create committed. Concurrent creates are therefore combined: they queue in the
// process, and a runner takes everything queued (whatever the categories and events) into one
// transaction, which runs as a single round trip (see runners):
//
//   - when a category of the batch has a quota, the places taken are read first (another
//     round trip) and granted in arrival order; the requests that do not fit get their quota
//     error and are left out;
//   - the granted orders, registrations and tickets are inserted with one statement per
//     table, their registrations' creation events with one more, the places of every
//     category taken with one statement (rows locked in category id order), one places event
//     written per event, the relay notified, and the implicit transaction of the pipeline
//     commits once.
//
// The database is the guard against overselling: the ledger's places_within_quota constraint
// fails the whole transaction if another transaction took places between the read and the
// take, and the batch is then granted again from a fresh read. Any other failure (a bib
// number taken, say) reruns each request of the batch alone, so that each gets its own
// answer.

// runners is the most combined transactions one process runs at a time, and crowd how many
// creates must be waiting for a second one to start (and for a runner to go on while another
// runs). One runner takes everything that queued while its last transaction ran, so what a
// transaction costs beyond its rows (round trips, the commit, a places event for the relay and
// the catalog) is shared by the most creates; but a transaction is executed by one database
// backend, on one core. When creates crowd in faster than that, a second runner makes the
// database use the other core too, each transaction still taking at least crowd creates.
// In make bench (64 clients, 2 cores): one runner, about 31 creates per transaction; two
// always, 14 and a quarter more CPU per create; two past a crowd of 24, about 23 and a fifth
// more creates per second than one.
const (
	runners = 2
	crowd   = 24
)

// maxBatch bounds the requests of one combined transaction.
const maxBatch = 128

// attempts bounds how often a batch is granted again after a concurrent take.
const attempts = 3

// createRequest is one create waiting in the queue.
type createRequest struct {
	ctx    context.Context
	order  domain.Order
	regs   []domain.Registration
	quotas map[string]*int
	// deltas are the places the order takes, one per category.
	deltas []domain.PlaceDelta
	done   chan error
}

type combiner struct {
	repo    *Repository
	mu      sync.Mutex
	pending []*createRequest
	running int
}

func newCombiner(r *Repository) *combiner { return &combiner{repo: r} }

// submit queues req, starts a runner when none runs (or a second when a crowd waits), and
// waits for its outcome. The combined transaction does not stop when one caller gives up, so a
// caller always learns whether its create was committed.
func (c *combiner) submit(req *createRequest) error {
	req.done = make(chan error, 1)
	req.deltas = placeDeltas(req.regs, req.order.Status, 1)
	c.mu.Lock()
	c.pending = append(c.pending, req)
	if c.running == 0 || c.running < runners && len(c.pending) >= crowd {
		c.running++
		go c.drain()
	}
	c.mu.Unlock()
	return <-req.done
}

// drain runs batches until nothing is queued, or until less than a crowd is while another
// runner runs (that one takes them next).
func (c *combiner) drain() {
	for {
		c.mu.Lock()
		n := min(len(c.pending), maxBatch)
		if n == 0 || c.running > 1 && n < crowd {
			c.running--
			c.mu.Unlock()
			return
		}
		batch := c.pending[:n:n]
		c.pending = c.pending[n:]
		c.mu.Unlock()
		c.run(batch)
	}
}

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
	for range attempts {
		g, err := c.grant(ctx, live)
		if err == nil {
			err = c.write(ctx, g)
		}
		if err == nil {
			for _, req := range live {
				req.done <- g.refused[req]
			}
			return
		}
		if !isQuotaViolation(err) {
			break
		}
	}
	// Something in the batch failed: run each request alone for its own answer.
	for _, req := range live {
		err := c.repo.createOrder(req.ctx, req.order, req.regs, req.quotas)
		if err == nil {
			createsPerTransaction.Record(ctx, 1)
		}
		req.done <- err
	}
}

// grant is what a batch writes: the requests granted, in arrival order, the places each
// category takes, and the quota errors of the requests refused.
type grant struct {
	granted []*createRequest
	takes   []placesTake
	refused map[*createRequest]error
}

// placesTake is an element of TakePlacesMany's takes.
type placesTake struct {
	CategoryID string `json:"category_id"`
	Livemode   bool   `json:"livemode"`
	EventID    string `json:"event_id"`
	Confirmed  int    `json:"confirmed"`
	Held       int    `json:"held"`
	Quota      *int   `json:"quota"`
}

// ledgerRow names a category's ledger row in one mode.
type ledgerRow struct {
	category string
	livemode bool
}

func rowOf(d domain.PlaceDelta) ledgerRow { return ledgerRow{d.CategoryID, d.Livemode} }

// grant decides which requests of batch fit in their categories' quotas, reading the places
// taken when a category has one. A category's quota is the one of its latest request (the
// freshest catalog read).
func (c *combiner) grant(ctx context.Context, batch []*createRequest) (grant, error) {
	takes := map[ledgerRow]*placesTake{}
	for _, req := range batch {
		for _, d := range req.deltas {
			t := takes[rowOf(d)]
			if t == nil {
				t = &placesTake{CategoryID: d.CategoryID, Livemode: d.Livemode, EventID: d.EventID}
				takes[rowOf(d)] = t
			}
			t.Quota = req.quotas[d.CategoryID]
		}
	}
	left, err := c.left(ctx, takes)
	if err != nil {
		return grant{}, err
	}
	g := grant{refused: map[*createRequest]error{}}
	for _, req := range batch {
		if err := fits(req.deltas, left); err != nil {
			g.refused[req] = err
			continue
		}
		for _, d := range req.deltas {
			t := takes[rowOf(d)]
			t.Confirmed += d.Confirmed
			t.Held += d.Held
			if n, ok := left[rowOf(d)]; ok {
				left[rowOf(d)] = n - d.Confirmed - d.Held
			}
		}
		g.granted = append(g.granted, req)
	}
	for _, t := range takes {
		if t.Confirmed+t.Held > 0 {
			g.takes = append(g.takes, *t)
		}
	}
	slices.SortFunc(g.takes, func(a, b placesTake) int {
		if n := cmp.Compare(a.CategoryID, b.CategoryID); n != 0 {
			return n
		}
		if a.Livemode == b.Livemode {
			return 0
		} else if a.Livemode {
			return 1
		}
		return -1
	})
	return g, nil
}

// left returns the places left in the ledger rows of takes whose category has a quota.
func (c *combiner) left(ctx context.Context, takes map[ledgerRow]*placesTake) (map[ledgerRow]int, error) {
	left := map[ledgerRow]int{}
	var keys []placesKey
	for k, t := range takes {
		if t.Quota != nil {
			left[k] = *t.Quota
			keys = append(keys, placesKey{CategoryID: k.category, Livemode: k.livemode})
		}
	}
	if len(keys) == 0 {
		return left, nil
	}
	b, err := json.Marshal(keys)
	if err != nil {
		return nil, err
	}
	rows, err := c.repo.q.GetPlacesMany(ctx, b)
	if err != nil {
		return nil, fmt.Errorf("read places: %w", err)
	}
	for _, p := range rows {
		k := ledgerRow{p.CategoryID, p.Livemode}
		if _, ok := left[k]; ok {
			left[k] -= int(p.Confirmed) + int(p.Held)
		}
	}
	return left, nil
}

// fits returns the quota error of the first category of deltas without enough places left.
func fits(deltas []domain.PlaceDelta, left map[ledgerRow]int) error {
	for _, d := range deltas {
		if n, ok := left[rowOf(d)]; ok && d.Confirmed+d.Held > n {
			return domain.QuotaError(d.CategoryID, max(n, 0))
		}
	}
	return nil
}

// write commits what g grants in one round trip: the statements of a pipeline run as one
// implicit transaction, which a failing statement rolls back as a whole.
func (c *combiner) write(ctx context.Context, g grant) error {
	if len(g.granted) == 0 {
		return nil
	}
	b := &pgx.Batch{}
	qu := &queue{b: b}
	q := db.New(qu)
	in := newInserts(len(g.granted))
	var now time.Time
	var created []outbox.Event
	for _, req := range g.granted {
		if err := in.addOrder(req.order, req.regs); err != nil {
			return err
		}
		now = later(now, req.order.CreatedAt)
		created = append(created, createdEvents(req.order, req.regs)...)
	}
	in.queue(ctx, q)
	if err := enqueue(ctx, qu, created...); err != nil {
		return err
	}
	takes, err := json.Marshal(g.takes)
	if err != nil {
		return err
	}
	_ = q.TakePlacesMany(ctx, takes)
	changed := make([]category, len(g.takes))
	for i, t := range g.takes {
		changed[i] = category{id: t.CategoryID, event: t.EventID, livemode: t.Livemode}
	}
	if err := queueAnnounce(ctx, qu, changed, now); err != nil {
		return err
	}
	if err := c.repo.pool.SendBatch(ctx, b).Close(); err != nil {
		return fmt.Errorf("combined create: %w", err)
	}
	createsPerTransaction.Record(ctx, int64(len(g.granted)))
	return nil
}

// isQuotaViolation reports whether err is the ledger refusing places past a quota.
func isQuotaViolation(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.ConstraintName == constraintQuota
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

package postgres

import (
	"context"
	"fmt"
	"hash/fnv"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/podiumhq/podium/services/registration/internal/adapters/postgres/db"
	"github.com/podiumhq/podium/services/registration/internal/domain"
)

// CreateHold stores a PENDING order with its registrations and holds their places, in one
// transaction that first locks the order's client network and purchaser e-mail within its
// event (those with a cap) and reads what their live holds take at o.CreatedAt; caps may
// refuse the order then. Holds never go through the create combiner: their subjects' locks
// are held until the commit, so two holds of one subject are counted one after the other.
func (r *Repository) CreateHold(ctx context.Context, o domain.Order, regs []domain.Registration, quotas map[string]*int, caps domain.HoldLimits) error {
	deltas := placeDeltas(regs, o.Status, 1)
	for i := range deltas {
		deltas[i].Check, deltas[i].Quota = true, quotas[deltas[i].CategoryID]
	}
	err := r.inTx(ctx, func(tx pgx.Tx, q *db.Queries) error {
		byAddress, byEmail, err := held(ctx, q, o, caps)
		if err != nil {
			return err
		}
		if err := caps.Admit(len(regs), byAddress, byEmail, o.CreatedAt); err != nil {
			return err
		}
		if err := insertAll(ctx, tx, o, regs); err != nil {
			return translate(err, nil)
		}
		return applyPlaces(ctx, tx, q, deltas, o.CreatedAt)
	})
	if err != nil {
		return fmt.Errorf("create hold: %w", err)
	}
	return nil
}

// held locks the capped subjects of o (its client network, when known, and its purchaser
// e-mail in its event) in the order of their lock ids, so that transactions never wait on
// each other in a cycle, and reads what their live holds take.
func held(ctx context.Context, q *db.Queries, o domain.Order, caps domain.HoldLimits) (byAddress, byEmail domain.Held, err error) {
	email := domain.NormalEmail(o.PurchaserEmail)
	byNetwork, byMail := caps.PerAddress > 0 && o.ClientNetwork != "", caps.PerEmail > 0
	var locks []int64
	if byMail {
		locks = append(locks, lockID("email", o.EventID, email))
	}
	if byNetwork {
		locks = append(locks, lockID("network", o.EventID, o.ClientNetwork))
	}
	slices.Sort(locks)
	for _, id := range locks {
		if err := q.LockHoldSubject(ctx, id); err != nil {
			return byAddress, byEmail, fmt.Errorf("lock hold subject: %w", err)
		}
	}
	if byNetwork {
		row, err := q.HeldByNetwork(ctx, db.HeldByNetworkParams{EventID: o.EventID, ClientNetwork: o.ClientNetwork, Now: o.CreatedAt})
		if err != nil {
			return byAddress, byEmail, fmt.Errorf("held by network: %w", err)
		}
		byAddress = domain.Held{Places: int(row.Places), FirstLapse: row.FirstLapse.UTC()}
	}
	if !byMail {
		return byAddress, byEmail, nil
	}
	row, err := q.HeldByEmail(ctx, db.HeldByEmailParams{EventID: o.EventID, Email: email, Now: o.CreatedAt})
	if err != nil {
		return byAddress, byEmail, fmt.Errorf("held by e-mail: %w", err)
	}
	return byAddress, domain.Held{Places: int(row.Places), FirstLapse: row.FirstLapse.UTC()}, nil
}

// lockID is the advisory lock id of a hold subject: a 64-bit FNV-1a hash of its kind, event
// and value (two subjects sharing an id only wait on each other).
func lockID(kind, eventID, value string) int64 {
	h := fnv.New64a()
	for _, s := range []string{"holds", kind, eventID, value} {
		_, _ = h.Write([]byte(s))
		_, _ = h.Write([]byte{0})
	}
	return int64(h.Sum64()) //nolint:gosec // a lock id: any 64 bits will do
}

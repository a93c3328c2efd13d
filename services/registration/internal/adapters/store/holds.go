package store

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	pg "github.com/podiumhq/podium/libs/postgres"
	"github.com/podiumhq/podium/services/registration/internal/adapters/store/db"
	"github.com/podiumhq/podium/services/registration/internal/domain"
)

// CreateHold stores a PENDING order with its registrations and holds their places, in one
// transaction that first locks its hold id (refusing an id released before, see
// ReleaseHoldByID), then the order's client network and purchaser e-mail within its
// event (those with a cap) and reads their live holds at o.CreatedAt. The caps may refuse the
// order, or name the e-mail's oldest holds, which are released in the same transaction to make
// room. Holds never go through the create combiner: their subjects' locks are held until the
// commit, so two holds of one subject are counted one after the other.
//
// With a waitlist offer's secret, the hold takes the place the offer holds (see takeOffer):
// the offer's place is freed and the hold's taken in the same pass over the ledger, so no
// other buyer can take it in between.
func (r *Repository) CreateHold(ctx context.Context, o domain.Order, regs []domain.Registration, quotas map[string]*int, caps domain.HoldLimits, offer string) error {
	deltas := placeDeltas(regs, o.Status, 1)
	for i := range deltas {
		deltas[i].Check, deltas[i].Quota = true, quotas[deltas[i].CategoryID]
	}
	err := r.inTx(ctx, func(tx pgx.Tx, q *db.Queries) error {
		if err := refuseReleasedHold(ctx, q, domain.Scope{OrganizerID: o.OrganizerID, Livemode: o.Livemode}, o.HoldID); err != nil {
			return err
		}
		byAddress, byEmail, err := liveHolds(ctx, q, o, caps)
		if err != nil {
			return err
		}
		release, err := caps.Admit(len(regs), byAddress, byEmail, o.CreatedAt)
		if err != nil {
			return err
		}
		freed, err := r.releaseForRoom(ctx, tx, q, domain.Scope{OrganizerID: o.OrganizerID, Livemode: o.Livemode}, release, o.CreatedAt)
		if err != nil {
			return err
		}
		if offer != "" {
			d, err := takeOffer(ctx, q, o, regs, offer)
			if err != nil {
				return err
			}
			freed = append(freed, d)
		}
		if err := keepLine(ctx, q, lineDeltas(deltas, offer != "", regs)); err != nil {
			return err
		}
		if err := insertAll(ctx, tx, o, regs); err != nil {
			return translate(err, nil)
		}
		// One pass over the ledger rows in category order, a category's freed places before
		// its new ones.
		return applyPlaces(ctx, tx, q, append(freed, deltas...), o.CreatedAt)
	})
	if err != nil {
		return fmt.Errorf("create hold: %w", err)
	}
	return nil
}

// liveHolds locks the capped subjects of o (its client network, when known, and its purchaser
// e-mail in its event, in its mode: test holds are capped apart) in the order of their lock ids, so that transactions never wait on
// each other in a cycle, and reads their live holds.
func liveHolds(ctx context.Context, q *db.Queries, o domain.Order, caps domain.HoldLimits) (byAddress, byEmail []domain.LiveHold, err error) {
	email := domain.NormalEmail(o.PurchaserEmail)
	byNetwork, byMail := caps.PerAddress > 0 && o.ClientNetwork != "", caps.PerEmail > 0
	var locks []int64
	if byMail {
		locks = append(locks, pg.LockID("holds", "email", o.EventID, email, modeName(o.Livemode)))
	}
	if byNetwork {
		locks = append(locks, pg.LockID("holds", "network", o.EventID, o.ClientNetwork, modeName(o.Livemode)))
	}
	slices.Sort(locks)
	for _, id := range locks {
		if err := q.LockHoldSubject(ctx, id); err != nil {
			return nil, nil, fmt.Errorf("lock hold subject: %w", err)
		}
	}
	if byNetwork {
		rows, err := q.LiveHoldsByNetwork(ctx, db.LiveHoldsByNetworkParams{EventID: o.EventID, Livemode: o.Livemode, ClientNetwork: o.ClientNetwork, Now: o.CreatedAt})
		if err != nil {
			return nil, nil, fmt.Errorf("holds by network: %w", err)
		}
		for _, row := range rows {
			byAddress = append(byAddress, domain.LiveHold{OrderID: row.ID, Places: int(row.Places), CreatedAt: row.CreatedAt.UTC(), ExpiresAt: row.ExpiresAt.UTC()})
		}
	}
	if byMail {
		rows, err := q.LiveHoldsByEmail(ctx, db.LiveHoldsByEmailParams{EventID: o.EventID, Livemode: o.Livemode, Email: email, Now: o.CreatedAt})
		if err != nil {
			return nil, nil, fmt.Errorf("holds by e-mail: %w", err)
		}
		for _, row := range rows {
			byEmail = append(byEmail, domain.LiveHold{OrderID: row.ID, Places: int(row.Places), CreatedAt: row.CreatedAt.UTC(), ExpiresAt: row.ExpiresAt.UTC()})
		}
	}
	return byAddress, byEmail, nil
}

// releaseForRoom releases the PENDING orders ids (reason CANCELLED) as any release does, and
// returns the ledger changes that free their places, for the caller to apply with its own. An
// order paid or released meanwhile is left as it is: it no longer holds unpaid places.
func (r *Repository) releaseForRoom(ctx context.Context, tx pgx.Tx, q *db.Queries, s domain.Scope, ids []string, now time.Time) ([]domain.PlaceDelta, error) {
	var freed []domain.PlaceDelta
	for _, id := range slices.Sorted(slices.Values(ids)) {
		o, err := lockOrder(ctx, q, s, id)
		if err != nil {
			return nil, err
		}
		if o.Status != domain.OrderPending {
			continue
		}
		regs, err := r.loadRegistrations(ctx, q, id)
		if err != nil {
			return nil, err
		}
		d, err := cancelHold(ctx, tx, q, &o, regs, domain.ReleaseCancelled, now)
		if err != nil {
			return nil, err
		}
		freed = append(freed, d...)
	}
	return freed, nil
}

// modeName names a mode in lock ids.
func modeName(livemode bool) string {
	if livemode {
		return "live"
	}
	return "test"
}

// lineDeltas are the places of deltas the waitlist's line is checked for: all of them, but
// the one place of the first registration's category that an offer brings.
func lineDeltas(deltas []domain.PlaceDelta, withOffer bool, regs []domain.Registration) []domain.PlaceDelta {
	if !withOffer || len(regs) == 0 {
		return deltas
	}
	out := slices.Clone(deltas)
	for i := range out {
		if out[i].CategoryID == regs[0].CategoryID {
			out[i].Held--
			break
		}
	}
	return out
}

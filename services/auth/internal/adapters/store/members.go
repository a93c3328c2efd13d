package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	pg "github.com/podiumhq/podium/libs/postgres"
	"github.com/podiumhq/podium/services/auth/internal/adapters/store/db"
	"github.com/podiumhq/podium/services/auth/internal/domain"
)

// Constraint names of the members table the adapter translates into domain errors.
const (
	constraintMemberEmail     = "members_organizer_email_key"
	constraintMemberOrganizer = "members_organizer_fkey"
)

// AddMember stores m and its audit entry by actor in one transaction.
func (r *Repository) AddMember(ctx context.Context, actor domain.Actor, m domain.Member) error {
	err := pg.InTx(ctx, r.pool, func(tx pgx.Tx) error {
		q := r.q.WithTx(tx)
		if err := insertMember(ctx, q, m); err != nil {
			return err
		}
		return record(ctx, q, domain.MemberAdded(actor, m))
	})
	if err != nil {
		return fmt.Errorf("add member: %w", err)
	}
	return nil
}

// Members returns a page of an organizer's members, newest first, and its member count.
func (r *Repository) Members(ctx context.Context, organizerID string, page domain.Page) ([]domain.Member, int, error) {
	rows, err := r.q.ListMembers(ctx, db.ListMembersParams{OrganizerID: organizerID, Limit: int32(page.Limit), Offset: int32(page.Offset)}) //nolint:gosec // paging is validated to small bounds
	if err != nil {
		return nil, 0, fmt.Errorf("list members: %w", err)
	}
	total, err := r.q.CountMembers(ctx, organizerID)
	if err != nil {
		return nil, 0, fmt.Errorf("count members: %w", err)
	}
	out := make([]domain.Member, len(rows))
	for i, row := range rows {
		out[i] = toMember(row)
	}
	return out, int(total), nil
}

// SetMemberRole changes the role of the member with change's id and organizer id to
// change.Role at change.UpdatedAt, with its audit entry by actor, holding the organization's
// owners locked so concurrent changes cannot together remove the last owner. Giving the member
// the role it has changes and records nothing.
func (r *Repository) SetMemberRole(ctx context.Context, actor domain.Actor, change domain.Member) (domain.Member, error) {
	var m domain.Member
	err := r.withOwnersLocked(ctx, change.OrganizerID, change.ID, change.Role, func(q *db.Queries, current domain.Member) error {
		m = current
		if current.Role == change.Role {
			return nil
		}
		m.Role, m.UpdatedAt = change.Role, change.UpdatedAt
		if err := q.SetMemberRole(ctx, db.SetMemberRoleParams{OrganizerID: m.OrganizerID, ID: m.ID, Role: string(m.Role), UpdatedAt: m.UpdatedAt}); err != nil {
			return fmt.Errorf("update role: %w", err)
		}
		return record(ctx, q, domain.MemberRoleChanged(actor, current, m))
	})
	if err != nil {
		return domain.Member{}, fmt.Errorf("set member role: %w", err)
	}
	return m, nil
}

// RemoveMember deletes the member and records its removal by actor at the given time,
// holding the organization's owners locked as SetMemberRole. A member removed from their last
// organization has the browsers they signed in with forgotten (signin_browsers): a former
// member's browser is a stranger's to the sign-in limits.
func (r *Repository) RemoveMember(ctx context.Context, actor domain.Actor, organizerID, memberID string, at time.Time) (domain.Member, error) {
	var m domain.Member
	err := r.withOwnersLocked(ctx, organizerID, memberID, "", func(q *db.Queries, current domain.Member) error {
		m = current
		if err := q.DeleteMember(ctx, db.DeleteMemberParams{OrganizerID: organizerID, ID: memberID}); err != nil {
			return fmt.Errorf("delete member: %w", err)
		}
		if err := q.ForgetBrowsersOfNonMember(ctx, current.Email); err != nil {
			return fmt.Errorf("forget browsers: %w", err)
		}
		return record(ctx, q, domain.MemberRemoved(actor, current, at))
	})
	if err != nil {
		return domain.Member{}, fmt.Errorf("remove member: %w", err)
	}
	return m, nil
}

// withOwnersLocked locks the organization's owners and the member, checks that giving the
// member the role next (none: removing it) keeps an owner, and runs change in the transaction.
func (r *Repository) withOwnersLocked(ctx context.Context, organizerID, memberID string, next domain.Role, change func(*db.Queries, domain.Member) error) error {
	return pg.InTx(ctx, r.pool, func(tx pgx.Tx) error {
		q := r.q.WithTx(tx)
		owners, err := q.LockOwners(ctx, organizerID)
		if err != nil {
			return fmt.Errorf("lock owners: %w", err)
		}
		row, err := q.GetMemberForUpdate(ctx, db.GetMemberForUpdateParams{OrganizerID: organizerID, ID: memberID})
		if pg.IsNoRows(err) {
			return domain.ErrMemberNotFound
		}
		if err != nil {
			return fmt.Errorf("lock member: %w", err)
		}
		current := toMember(row)
		if err := domain.CheckOwnerKept(current, next, len(owners)); err != nil {
			return err
		}
		return change(q, current)
	})
}

func insertMember(ctx context.Context, q *db.Queries, m domain.Member) error {
	err := q.InsertMember(ctx, db.InsertMemberParams{
		ID: m.ID, OrganizerID: m.OrganizerID, Email: m.Email, Role: string(m.Role), CreatedAt: m.CreatedAt, UpdatedAt: m.UpdatedAt,
	})
	if pg.IsUniqueViolation(err, constraintMemberEmail) {
		return domain.ErrDuplicateMember
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23503" && pgErr.ConstraintName == constraintMemberOrganizer {
		return domain.ErrOrganizerNotFound
	}
	if err != nil {
		return fmt.Errorf("insert member: %w", err)
	}
	return nil
}

func toMember(row db.Member) domain.Member {
	return domain.Member{
		ID: row.ID, OrganizerID: row.OrganizerID, Email: row.Email, Role: domain.Role(row.Role),
		CreatedAt: row.CreatedAt.UTC(), UpdatedAt: row.UpdatedAt.UTC(),
	}
}

// Contacts returns the organization's owners and admins, owners first.
func (r *Repository) Contacts(ctx context.Context, organizerID string) ([]domain.Contact, error) {
	rows, err := r.q.ListContacts(ctx, organizerID)
	if err != nil {
		return nil, fmt.Errorf("list contacts: %w", err)
	}
	out := make([]domain.Contact, len(rows))
	for i, row := range rows {
		out[i] = domain.Contact{Email: row.Email, Role: domain.Role(row.Role)}
	}
	return out, nil
}

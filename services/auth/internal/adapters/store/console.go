package store

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	pg "github.com/podiumhq/podium/libs/postgres"
	"github.com/podiumhq/podium/services/auth/internal/adapters/store/db"
	"github.com/podiumhq/podium/services/auth/internal/domain"
)

// CreateSignInLink stores l, and reports true, unless allow refuses the demand already on its
// browser, e-mail and network since the given time; it counts and inserts holding the e-mail
// and the network locked, so concurrent requests cannot together exceed a limit. A refused
// request stores nothing.
func (r *Repository) CreateSignInLink(ctx context.Context, l domain.SignInLink, since time.Time, allow func(domain.SignInDemand) bool) (bool, error) {
	created := false
	err := pg.InTx(ctx, r.pool, func(tx pgx.Tx) error {
		q := r.q.WithTx(tx)
		if err := q.LockSignInDemand(ctx, []int64{pg.LockID("signin-email", l.Email), pg.LockID("signin-network", l.Network)}); err != nil {
			return fmt.Errorf("lock demand: %w", err)
		}
		d, err := q.SignInDemand(ctx, db.SignInDemandParams{ForEmail: l.Email, BrowserHash: l.BrowserHash, FromNetwork: l.Network, Since: since})
		if err != nil {
			return fmt.Errorf("count demand: %w", err)
		}
		demand := domain.SignInDemand{ByBrowser: int(d.ByBrowser), ByEmail: int(d.ByEmail), ByNetwork: int(d.ByNetwork), KnownBrowser: d.KnownBrowser}
		if !allow(demand) {
			return nil
		}
		created = true
		return q.InsertSignInLink(ctx, db.InsertSignInLinkParams{
			TokenHash: l.TokenHash, Email: l.Email, BrowserHash: l.BrowserHash, Address: l.Network,
			CreatedAt: l.CreatedAt, ExpiresAt: l.ExpiresAt,
		})
	})
	if err != nil {
		return false, fmt.Errorf("create sign-in link: %w", err)
	}
	return created, nil
}

// UseSignInLink marks the link with tokenHash used at the given time if it is unused,
// unexpired and bound to browserHash (or to no browser), and returns it. Otherwise it returns
// domain.ErrSignInLinkOtherBrowser for a valid link of another browser and
// domain.ErrSignInLinkInvalid for the rest.
func (r *Repository) UseSignInLink(ctx context.Context, tokenHash, browserHash string, at time.Time) (domain.SignInLink, error) {
	row, err := r.q.UseSignInLink(ctx, db.UseSignInLinkParams{TokenHash: tokenHash, BrowserHash: browserHash, At: &at})
	if err == nil {
		return toSignInLink(row), nil
	}
	if !pg.IsNoRows(err) {
		return domain.SignInLink{}, fmt.Errorf("use sign-in link: %w", err)
	}
	l, err := r.SignInLink(ctx, tokenHash)
	if err != nil {
		return domain.SignInLink{}, err
	}
	if l.UsedAt == nil && l.ExpiresAt.After(at) {
		return domain.SignInLink{}, domain.ErrSignInLinkOtherBrowser
	}
	return domain.SignInLink{}, domain.ErrSignInLinkInvalid
}

// SignInLink returns the link with tokenHash, or domain.ErrSignInLinkInvalid.
func (r *Repository) SignInLink(ctx context.Context, tokenHash string) (domain.SignInLink, error) {
	row, err := r.q.GetSignInLink(ctx, tokenHash)
	if pg.IsNoRows(err) {
		return domain.SignInLink{}, domain.ErrSignInLinkInvalid
	}
	if err != nil {
		return domain.SignInLink{}, fmt.Errorf("sign-in link: %w", err)
	}
	return toSignInLink(row), nil
}

// CreateSession stores s and remembers its browser (s.BrowserHash, unless empty) as one that
// signed in as s.Email, in one transaction.
func (r *Repository) CreateSession(ctx context.Context, s domain.Session) error {
	err := pg.InTx(ctx, r.pool, func(tx pgx.Tx) error {
		q := r.q.WithTx(tx)
		if s.BrowserHash != "" {
			if err := q.RememberBrowser(ctx, db.RememberBrowserParams{Email: s.Email, BrowserHash: s.BrowserHash, LastSeenAt: s.CreatedAt}); err != nil {
				return fmt.Errorf("remember browser: %w", err)
			}
		}
		return q.InsertSession(ctx, db.InsertSessionParams{
			ID: s.ID, TokenHash: s.TokenHash, Email: s.Email, BrowserHash: s.BrowserHash, Address: s.Address, UserAgent: s.UserAgent,
			CreatedAt: s.CreatedAt, LastSeenAt: s.LastSeenAt, ExpiresAt: s.ExpiresAt,
		})
	})
	if err != nil {
		return fmt.Errorf("create session: %w", err)
	}
	return nil
}

// SessionByTokenHash returns the session with tokenHash, revoked and expired ones included, or
// domain.ErrSessionInvalid.
func (r *Repository) SessionByTokenHash(ctx context.Context, tokenHash string) (domain.Session, error) {
	row, err := r.q.GetSessionByTokenHash(ctx, tokenHash)
	if pg.IsNoRows(err) {
		return domain.Session{}, domain.ErrSessionInvalid
	}
	if err != nil {
		return domain.Session{}, fmt.Errorf("session: %w", err)
	}
	return toSession(row), nil
}

// TouchSession records a use of the session at the given time from address, unless it is
// revoked or a later use is already recorded, and with it remembers the session's browser as
// seen at that time while its e-mail is a member.
func (r *Repository) TouchSession(ctx context.Context, id, address string, at time.Time) error {
	if err := r.q.TouchSession(ctx, db.TouchSessionParams{ID: id, At: at, Address: address}); err != nil {
		return fmt.Errorf("touch session: %w", err)
	}
	return nil
}

// Sessions returns the active sessions of email at the given time, newest first (at most 100).
func (r *Repository) Sessions(ctx context.Context, email string, at time.Time) ([]domain.Session, error) {
	rows, err := r.q.ListSessions(ctx, db.ListSessionsParams{Email: email, ExpiresAt: at})
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	out := make([]domain.Session, len(rows))
	for i, row := range rows {
		out[i] = toSession(row)
	}
	return out, nil
}

// RevokeSession revokes the session id of email at the given time, and forgets the browser it
// was opened in as one that signed in as email; a session of someone else, or one already
// revoked, is domain.ErrSessionInvalid.
func (r *Repository) RevokeSession(ctx context.Context, email, id string, at time.Time) error {
	n, err := r.q.RevokeSession(ctx, db.RevokeSessionParams{Email: email, ID: id, RevokedAt: &at})
	if err != nil {
		return fmt.Errorf("revoke session: %w", err)
	}
	if n == 0 {
		return domain.ErrSessionInvalid
	}
	return nil
}

// DeleteExpired deletes sign-in links asked before linksBefore, sessions that expired before
// sessionsBefore and browsers last seen (signed in, or using a session) before browsersBefore,
// and returns how many of each it deleted.
func (r *Repository) DeleteExpired(ctx context.Context, linksBefore, sessionsBefore, browsersBefore time.Time) (domain.Deleted, error) {
	var d domain.Deleted
	var err error
	if d.Links, err = r.q.DeleteSignInLinksBefore(ctx, linksBefore); err != nil {
		return d, fmt.Errorf("delete sign-in links: %w", err)
	}
	if d.Sessions, err = r.q.DeleteSessionsBefore(ctx, sessionsBefore); err != nil {
		return d, fmt.Errorf("delete sessions: %w", err)
	}
	if d.Browsers, err = r.q.DeleteSignInBrowsersBefore(ctx, browsersBefore); err != nil {
		return d, fmt.Errorf("delete sign-in browsers: %w", err)
	}
	return d, nil
}

// Memberships returns the organizations email is a member of, by organization name.
func (r *Repository) Memberships(ctx context.Context, email string) ([]domain.Membership, error) {
	rows, err := r.q.MembershipsByEmail(ctx, email)
	if err != nil {
		return nil, fmt.Errorf("memberships: %w", err)
	}
	out := make([]domain.Membership, len(rows))
	for i, row := range rows {
		out[i] = toMembership(row)
	}
	return out, nil
}

// Membership returns the membership of email in the organizer, or domain.ErrOrganizerNotFound
// when there is none: an organization one is not a member of does not exist for one.
func (r *Repository) Membership(ctx context.Context, email, organizerID string) (domain.Membership, error) {
	row, err := r.q.GetMembership(ctx, db.GetMembershipParams{Email: email, OrganizerID: organizerID})
	if pg.IsNoRows(err) {
		return domain.Membership{}, domain.ErrOrganizerNotFound
	}
	if err != nil {
		return domain.Membership{}, fmt.Errorf("membership: %w", err)
	}
	return toMembership(db.MembershipsByEmailRow(row)), nil
}

func toMembership(row db.MembershipsByEmailRow) domain.Membership {
	m := db.Member{ID: row.ID, OrganizerID: row.OrganizerID, Email: row.Email, Role: row.Role, CreatedAt: row.CreatedAt, UpdatedAt: row.UpdatedAt}
	return domain.Membership{Member: toMember(m), OrganizerName: row.OrganizerName}
}

func toSignInLink(row db.SigninLink) domain.SignInLink {
	return domain.SignInLink{
		TokenHash: row.TokenHash, Email: row.Email, BrowserHash: row.BrowserHash, Network: row.Address,
		CreatedAt: row.CreatedAt.UTC(), ExpiresAt: row.ExpiresAt.UTC(), UsedAt: utc(row.UsedAt),
	}
}

func toSession(row db.ConsoleSession) domain.Session {
	return domain.Session{
		ID: row.ID, TokenHash: row.TokenHash, Email: row.Email, BrowserHash: row.BrowserHash, Address: row.Address, UserAgent: row.UserAgent,
		CreatedAt: row.CreatedAt.UTC(), LastSeenAt: row.LastSeenAt.UTC(), ExpiresAt: row.ExpiresAt.UTC(), RevokedAt: utc(row.RevokedAt),
	}
}

// OrganizerKey returns the organizer's key with id, or domain.ErrKeyNotFound (for another
// organizer's key too).
func (r *Repository) OrganizerKey(ctx context.Context, organizerID, id string) (domain.Key, error) {
	row, err := r.q.GetOrganizerKey(ctx, db.GetOrganizerKeyParams{OrganizerID: organizerID, ID: id})
	if pg.IsNoRows(err) {
		return domain.Key{}, domain.ErrKeyNotFound
	}
	if err != nil {
		return domain.Key{}, fmt.Errorf("organizer key: %w", err)
	}
	return toKey(row), nil
}

// OrganizerMember returns the organizer's member with id, or domain.ErrMemberNotFound.
func (r *Repository) OrganizerMember(ctx context.Context, organizerID, id string) (domain.Member, error) {
	row, err := r.q.GetOrganizerMember(ctx, db.GetOrganizerMemberParams{OrganizerID: organizerID, ID: id})
	if pg.IsNoRows(err) {
		return domain.Member{}, domain.ErrMemberNotFound
	}
	if err != nil {
		return domain.Member{}, fmt.Errorf("organizer member: %w", err)
	}
	return toMember(row), nil
}

package store_test

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/podiumhq/podium/services/auth/internal/adapters/store"
	"github.com/podiumhq/podium/services/auth/internal/authtest"
	"github.com/podiumhq/podium/services/auth/internal/domain"
)

var ana = domain.Actor{Email: "ana@example.com", Address: "203.0.113.9"}

// auditLog returns the organizer's whole audit log, newest first, checking that the total
// counts it, that ids decrease and that every entry is the organizer's.
func auditLog(t *testing.T, repo *store.Repository, organizerID string) []domain.AuditEntry {
	t.Helper()
	list, total, err := repo.AuditLog(t.Context(), organizerID, domain.Page{Limit: 100})
	if err != nil || total != len(list) {
		t.Fatalf("AuditLog = %d entries, total %d, %v", len(list), total, err)
	}
	for i, e := range list {
		if e.OrganizerID != organizerID {
			t.Fatalf("the audit log of %s lists an entry of %s: %+v", organizerID, e.OrganizerID, e)
		}
		if i > 0 && e.ID >= list[i-1].ID {
			t.Fatalf("entries are not newest first: ids %d then %d", list[i-1].ID, e.ID)
		}
	}
	return list
}

// withoutIDs returns entries with their ids cleared, for comparison with expected entries.
func withoutIDs(entries []domain.AuditEntry) []domain.AuditEntry {
	out := slices.Clone(entries)
	for i := range out {
		out[i].ID = 0
	}
	return out
}

func wantAudit(t *testing.T, got []domain.AuditEntry, want ...domain.AuditEntry) {
	t.Helper()
	if !slices.Equal(withoutIDs(got), want) {
		t.Fatalf("audit log\n%+v\nwant\n%+v", got, want)
	}
}

func TestEveryChangeRecordsOneAuditEntry(t *testing.T) {
	repo := store.New(authtest.Pool(t))
	org := organizer(t, repo, t0)
	t1, t2 := t0.Add(time.Minute), t0.Add(time.Hour)

	k, _, _ := domain.NewKey(org.ID, secretReq, t0)
	if err := repo.CreateKey(t.Context(), ana, k); err != nil {
		t.Fatal(err)
	}
	for _, at := range []time.Time{t1, t2} { // the second revocation changes nothing
		if _, err := repo.RevokeKey(t.Context(), operator, org.ID, k.ID, at); err != nil {
			t.Fatal(err)
		}
	}
	bo := member(t, repo, org.ID, "bo@example.com", domain.RoleAdmin, t0)
	for range 2 { // the second change to the same role changes nothing
		if _, err := repo.SetMemberRole(t.Context(), ana, domain.Member{ID: bo.ID, OrganizerID: org.ID, Role: domain.RoleMember, UpdatedAt: t1}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := repo.RemoveMember(t.Context(), ana, org.ID, bo.ID, t2); err != nil {
		t.Fatal(err)
	}

	entry := func(actor domain.Actor, action domain.AuditAction, subject, detail string, at time.Time) domain.AuditEntry {
		return domain.AuditEntry{OrganizerID: org.ID, Actor: actor, Action: action, SubjectID: subject, Detail: detail, At: at}
	}
	all := []domain.AuditEntry{
		entry(ana, domain.AuditMemberRemoved, bo.ID, "bo@example.com (member)", t2),
		entry(ana, domain.AuditMemberRoleChanged, bo.ID, "bo@example.com: admin → member", t1),
		entry(operator, domain.AuditMemberAdded, bo.ID, "bo@example.com as admin", t0),
		entry(operator, domain.AuditKeyRevoked, k.ID, "secret key backend", t1),
		entry(ana, domain.AuditKeyCreated, k.ID, "secret key backend", t0),
	}
	wantAudit(t, auditLog(t, repo, org.ID), all...)

	page, total, err := repo.AuditLog(t.Context(), org.ID, domain.Page{Limit: 2, Offset: 1})
	if err != nil || total != len(all) {
		t.Fatalf("second page: total %d, %v", total, err)
	}
	wantAudit(t, page, all[1:3]...)
}

func TestRefusedChangesRecordNothing(t *testing.T) {
	pool := authtest.Pool(t)
	repo := store.New(pool)
	org, other := organizer(t, repo, t0), organizer(t, repo, t0)
	owner := member(t, repo, org.ID, "ana@example.com", domain.RoleOwner, t0)
	theirKey := key(t, repo, other.ID, secretReq, t0)
	before, theirsBefore := auditLog(t, repo, org.ID), auditLog(t, repo, other.ID)
	if len(before) != 1 || len(theirsBefore) != 1 {
		t.Fatalf("audit logs before: %+v and %+v, want one entry each", before, theirsBefore)
	}

	dup, _ := domain.NewMember(org.ID, "ana@example.com", "member", t0)
	if err := repo.AddMember(t.Context(), ana, dup); !errors.Is(err, domain.ErrDuplicateMember) {
		t.Fatalf("duplicate member: %v", err)
	}
	if _, err := setRole(t, repo, owner, domain.RoleAdmin, t0); !errors.Is(err, domain.ErrLastOwner) {
		t.Fatalf("demoting the last owner: %v", err)
	}
	if _, err := repo.RemoveMember(t.Context(), ana, org.ID, owner.ID, t0); !errors.Is(err, domain.ErrLastOwner) {
		t.Fatalf("removing the last owner: %v", err)
	}
	if _, err := repo.RevokeKey(t.Context(), ana, org.ID, theirKey.ID, t0); !errors.Is(err, domain.ErrKeyNotFound) {
		t.Fatalf("revoking another organizer's key: %v", err)
	}

	wantAudit(t, auditLog(t, repo, org.ID), withoutIDs(before)...)
	wantAudit(t, auditLog(t, repo, other.ID), withoutIDs(theirsBefore)...)
	if list, _, _ := repo.Keys(t.Context(), other.ID, "", domain.Page{Limit: 10}); list[0].RevokedAt != nil {
		t.Fatal("another organizer's key was revoked")
	}
	if ty := outboxTypes(t, pool, theirKey.ID); !slices.Equal(ty, []string{domain.EventKeyCreated}) {
		t.Fatalf("outbox %q", ty)
	}
}

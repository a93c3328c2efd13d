package store_test

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/podiumhq/podium/services/auth/internal/adapters/store"
	"github.com/podiumhq/podium/services/auth/internal/authtest"
	"github.com/podiumhq/podium/services/auth/internal/domain"
)

func member(t *testing.T, repo *store.Repository, orgID, email string, role domain.Role, at time.Time) domain.Member {
	t.Helper()
	m, err := domain.NewMember(orgID, email, string(role), at)
	if err != nil {
		t.Fatal(err)
	}
	if err := repo.AddMember(t.Context(), operator, m); err != nil {
		t.Fatal(err)
	}
	return m
}

func setRole(t *testing.T, repo *store.Repository, m domain.Member, role domain.Role, at time.Time) (domain.Member, error) {
	return repo.SetMemberRole(t.Context(), operator, domain.Member{ID: m.ID, OrganizerID: m.OrganizerID, Role: role, UpdatedAt: at})
}

func TestMembersAddListChangeRemove(t *testing.T) {
	repo := store.New(authtest.Pool(t))
	org := organizer(t, repo, t0)
	owner := member(t, repo, org.ID, "Ana@Example.com", domain.RoleOwner, t0)
	admin := member(t, repo, org.ID, "bo@example.com", domain.RoleAdmin, t0.Add(time.Second))
	if owner.Email != "ana@example.com" {
		t.Fatalf("email %q is not normalised", owner.Email)
	}

	list, total, err := repo.Members(t.Context(), org.ID, domain.Page{Limit: 10})
	if err != nil || total != 2 || len(list) != 2 || list[0] != admin || list[1] != owner {
		t.Fatalf("Members = %+v, total %d, %v; want newest first", list, total, err)
	}

	later := t0.Add(time.Minute)
	got, err := setRole(t, repo, admin, domain.RoleMember, later)
	if err != nil || got.Role != domain.RoleMember || !got.UpdatedAt.Equal(later) || !got.CreatedAt.Equal(admin.CreatedAt) {
		t.Fatalf("SetMemberRole = %+v, %v", got, err)
	}
	removed, err := repo.RemoveMember(t.Context(), operator, org.ID, admin.ID, t0)
	if err != nil || removed.ID != admin.ID || removed.Role != domain.RoleMember {
		t.Fatalf("RemoveMember = %+v, %v", removed, err)
	}
	if _, err := repo.RemoveMember(t.Context(), operator, org.ID, admin.ID, t0); !errors.Is(err, domain.ErrMemberNotFound) {
		t.Fatalf("removing twice: %v", err)
	}
	if _, total, _ := repo.Members(t.Context(), org.ID, domain.Page{Limit: 10}); total != 1 {
		t.Fatalf("%d members left, want the owner", total)
	}
}

func TestMemberEmailIsUniquePerOrganization(t *testing.T) {
	repo := store.New(authtest.Pool(t))
	a, b := organizer(t, repo, t0), organizer(t, repo, t0)
	member(t, repo, a.ID, "ana@example.com", domain.RoleOwner, t0)
	dup, _ := domain.NewMember(a.ID, " ANA@example.com ", "member", t0)
	if err := repo.AddMember(t.Context(), operator, dup); !errors.Is(err, domain.ErrDuplicateMember) {
		t.Fatalf("duplicate e-mail: %v", err)
	}
	member(t, repo, b.ID, "ana@example.com", domain.RoleOwner, t0)
	ghost, _ := domain.NewMember("org_missing", "ana@example.com", "owner", t0)
	if err := repo.AddMember(t.Context(), operator, ghost); !errors.Is(err, domain.ErrOrganizerNotFound) {
		t.Fatalf("unknown organizer: %v", err)
	}
}

func TestOrganizationsNeverSeeEachOthersMembers(t *testing.T) {
	repo := store.New(authtest.Pool(t))
	a, b := organizer(t, repo, t0), organizer(t, repo, t0)
	member(t, repo, a.ID, "ana@example.com", domain.RoleOwner, t0)
	theirs := member(t, repo, b.ID, "bo@example.com", domain.RoleOwner, t0)
	member(t, repo, b.ID, "cy@example.com", domain.RoleOwner, t0)

	if list, total, _ := repo.Members(t.Context(), a.ID, domain.Page{Limit: 10}); total != 1 || list[0].OrganizerID != a.ID {
		t.Fatalf("organizer a lists %+v", list)
	}
	if _, err := setRole(t, repo, domain.Member{ID: theirs.ID, OrganizerID: a.ID}, domain.RoleMember, t0); !errors.Is(err, domain.ErrMemberNotFound) {
		t.Fatalf("changing another organization's member: %v", err)
	}
	if _, err := repo.RemoveMember(t.Context(), operator, a.ID, theirs.ID, t0); !errors.Is(err, domain.ErrMemberNotFound) {
		t.Fatalf("removing another organization's member: %v", err)
	}
}

func TestLastOwnerCannotBeRemovedOrDemoted(t *testing.T) {
	repo := store.New(authtest.Pool(t))
	org := organizer(t, repo, t0)
	owner := member(t, repo, org.ID, "ana@example.com", domain.RoleOwner, t0)
	if _, err := setRole(t, repo, owner, domain.RoleAdmin, t0); !errors.Is(err, domain.ErrLastOwner) {
		t.Fatalf("demoting the last owner: %v", err)
	}
	if _, err := repo.RemoveMember(t.Context(), operator, org.ID, owner.ID, t0); !errors.Is(err, domain.ErrLastOwner) {
		t.Fatalf("removing the last owner: %v", err)
	}
	if got, err := setRole(t, repo, owner, domain.RoleOwner, t0); err != nil || got.Role != domain.RoleOwner {
		t.Fatalf("keeping the last owner an owner: %+v, %v", got, err)
	}

	second := member(t, repo, org.ID, "bo@example.com", domain.RoleOwner, t0)
	if _, err := repo.RemoveMember(t.Context(), operator, org.ID, owner.ID, t0); err != nil {
		t.Fatalf("removing one of two owners: %v", err)
	}
	if _, err := setRole(t, repo, second, domain.RoleMember, t0); !errors.Is(err, domain.ErrLastOwner) {
		t.Fatalf("demoting the remaining owner: %v", err)
	}
}

// TestConcurrentDemotionsKeepAnOwner demotes both owners of an organization at once, in many
// organizations: each time exactly one demotion must succeed.
func TestConcurrentDemotionsKeepAnOwner(t *testing.T) {
	repo := store.New(authtest.Pool(t))
	for range 20 {
		org := organizer(t, repo, t0)
		owners := []domain.Member{
			member(t, repo, org.ID, "ana@example.com", domain.RoleOwner, t0),
			member(t, repo, org.ID, "bo@example.com", domain.RoleOwner, t0),
		}
		errs := make([]error, len(owners))
		start := make(chan struct{})
		var wg sync.WaitGroup
		for i, o := range owners {
			wg.Go(func() {
				<-start
				_, errs[i] = setRole(t, repo, o, domain.RoleAdmin, t0)
			})
		}
		close(start)
		wg.Wait()
		failed := 0
		for _, err := range errs {
			switch {
			case errors.Is(err, domain.ErrLastOwner):
				failed++
			case err != nil:
				t.Fatal(err)
			}
		}
		if failed != 1 {
			t.Fatalf("%d of 2 concurrent demotions failed, want exactly 1: %v", failed, errs)
		}
	}
}

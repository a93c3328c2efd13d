package domain_test

import (
	"errors"
	"testing"

	"github.com/podiumhq/podium/services/auth/internal/domain"
)

func TestNormalizeEmail(t *testing.T) {
	for in, want := range map[string]string{
		" Ana@Example.COM ": "ana@example.com", "a.b+c@mail.example.org": "a.b+c@mail.example.org",
		"": "", "ana": "", "ana@example": "", "a b@example.com": "", "ana@exämple.com": "", "a@b@example.com": "", "ana@-x.com": "", "ana@example..com": "",
	} {
		got, problem := domain.NormalizeEmail(in)
		if got != want || (want == "") != (problem != "") {
			t.Errorf("NormalizeEmail(%q) = %q, %q; want %q", in, got, problem, want)
		}
	}
}

func TestRoles(t *testing.T) {
	if !domain.CanManage(domain.RoleOwner) || !domain.CanManage(domain.RoleAdmin) || domain.CanManage(domain.RoleMember) || domain.CanManage("") {
		t.Fatal("only owners and admins manage")
	}
	if _, problem := domain.ParseRole("boss"); problem != "role must be one of owner, admin, member" {
		t.Fatalf("unknown role: %q", problem)
	}
	owner := domain.Member{Role: domain.RoleOwner}
	for _, next := range []domain.Role{domain.RoleAdmin, ""} {
		if err := domain.CheckOwnerKept(owner, next, 1); !errors.Is(err, domain.ErrLastOwner) {
			t.Fatalf("last owner to %q: %v", next, err)
		}
		if err := domain.CheckOwnerKept(owner, next, 2); err != nil {
			t.Fatalf("one of two owners to %q: %v", next, err)
		}
	}
}

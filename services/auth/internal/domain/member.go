package domain

import (
	"strings"
	"time"

	"github.com/podiumhq/podium/libs/fault"
)

// Role says what a member may do in their organization.
type Role string

// The roles, from most to least powerful.
const (
	// RoleOwner manages the organization; it always keeps at least one.
	RoleOwner Role = "owner"
	// RoleAdmin manages the organization: its keys and members.
	RoleAdmin Role = "admin"
	// RoleMember sees the organization and manages nothing.
	RoleMember Role = "member"
)

// MaxEmailLen is the longest e-mail address accepted, in characters.
const MaxEmailLen = 254

// CanManage reports whether a member with role may manage the organization's keys, members and
// webhook endpoints.
func CanManage(role Role) bool { return role == RoleOwner || role == RoleAdmin }

// Member is a person of an organization, identified by e-mail.
type Member struct {
	ID          string
	OrganizerID string
	Email       string
	Role        Role
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

// Contact is a member who manages the organization, as the services that mail its
// organization about an integration see it.
type Contact struct {
	Email string
	Role  Role
}

// NewMember validates email and role and returns a new member of the organizer created at now.
func NewMember(organizerID, email, role string, now time.Time) (Member, error) {
	var p fault.Problems
	normal, emailProblem := NormalizeEmail(email)
	if emailProblem != "" {
		p.Add(emailProblem)
	}
	r, roleProblem := ParseRole(role)
	if roleProblem != "" {
		p.Add(roleProblem)
	}
	if err := p.Err(fault.Invalid); err != nil {
		return Member{}, err
	}
	return Member{ID: NewMemberID(), OrganizerID: organizerID, Email: normal, Role: r, CreatedAt: now, UpdatedAt: now}, nil
}

// ParseRole returns the role named s, or the problem with it.
func ParseRole(s string) (Role, string) {
	switch r := Role(strings.TrimSpace(s)); r {
	case RoleOwner, RoleAdmin, RoleMember:
		return r, ""
	case "":
		return "", "role is required"
	}
	return "", "role must be one of owner, admin, member"
}

// NormalizeEmail trims and lower-cases an ASCII e-mail address, or returns the problem with it.
func NormalizeEmail(s string) (string, string) {
	s = strings.ToLower(strings.TrimSpace(s))
	switch {
	case s == "":
		return "", "email is required"
	case len(s) > MaxEmailLen:
		return "", "email must be at most 254 characters"
	case !validEmail(s):
		return "", "email must be an ASCII e-mail address such as ana@example.com"
	}
	return s, ""
}

// validEmail checks the shape local@domain.tld with printable ASCII and no spaces.
func validEmail(s string) bool {
	local, host, ok := strings.Cut(s, "@")
	if !ok || local == "" || len(local) > 64 || strings.Contains(host, "@") {
		return false
	}
	for i := range len(s) {
		if s[i] <= ' ' || s[i] > '~' {
			return false
		}
	}
	labels := strings.Split(host, ".")
	if len(labels) < 2 {
		return false
	}
	for _, l := range labels {
		if l == "" || strings.HasPrefix(l, "-") || strings.HasSuffix(l, "-") {
			return false
		}
	}
	return true
}

// CheckOwnerKept refuses, with ErrLastOwner, to give m the role next, or to remove m when next is
// empty, if that would leave its organization without an owner; owners is how many it has.
func CheckOwnerKept(m Member, next Role, owners int) error {
	if m.Role == RoleOwner && next != RoleOwner && owners <= 1 {
		return ErrLastOwner
	}
	return nil
}

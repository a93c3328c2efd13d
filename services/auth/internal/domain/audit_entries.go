package domain

import (
	"fmt"
	"time"

	"github.com/podiumhq/podium/libs/apikey"
)

// KeyAudit returns the entry recording action (AuditKeyCreated or AuditKeyRevoked) on k by
// actor at the given time, described as "<type> key <name>" (keyDetail).
func KeyAudit(actor Actor, action AuditAction, k Key, at time.Time) AuditEntry {
	return AuditEntry{
		OrganizerID: k.OrganizerID, Actor: actor, Action: action, SubjectID: k.ID,
		Detail: keyDetail(k), At: at,
	}
}

// keyDetail describes a key as "<type> key <name>", "test <type> key <name>" for a test key.
func keyDetail(k Key) string {
	d := fmt.Sprintf("%s key %s", k.Type, k.Name)
	if k.Mode == apikey.Test {
		d = "test " + d
	}
	return d
}

// MemberAdded returns the entry recording that actor added m, described as "<email> as <role>".
func MemberAdded(actor Actor, m Member) AuditEntry {
	return memberAudit(actor, AuditMemberAdded, m, fmt.Sprintf("%s as %s", m.Email, m.Role), m.CreatedAt)
}

// MemberRoleChanged returns the entry recording that actor changed a member's role from
// before's to after's, described as "<email>: <old> → <new>".
func MemberRoleChanged(actor Actor, before, after Member) AuditEntry {
	return memberAudit(actor, AuditMemberRoleChanged, after, fmt.Sprintf("%s: %s → %s", after.Email, before.Role, after.Role), after.UpdatedAt)
}

// MemberRemoved returns the entry recording that actor removed m at the given time, described
// as "<email> (<role>)".
func MemberRemoved(actor Actor, m Member, at time.Time) AuditEntry {
	return memberAudit(actor, AuditMemberRemoved, m, fmt.Sprintf("%s (%s)", m.Email, m.Role), at)
}

func memberAudit(actor Actor, action AuditAction, m Member, detail string, at time.Time) AuditEntry {
	return AuditEntry{OrganizerID: m.OrganizerID, Actor: actor, Action: action, SubjectID: m.ID, Detail: detail, At: at}
}

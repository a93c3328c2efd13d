package domain

import "time"

// Actor is who made a change, as the audit log records it: a member's e-mail, or Operator
// for the admin API, and the client address the change came from.
type Actor struct {
	Email   string
	Address string
}

// Operator is the actor name of changes made through the admin API.
const Operator = "operator"

// OperatorActor is the admin API's actor, calling from address.
func OperatorActor(address string) Actor { return Actor{Email: Operator, Address: address} }

// AuditAction names a recorded change.
type AuditAction string

// The recorded changes of keys and members.
const (
	AuditKeyCreated        AuditAction = "key.created"
	AuditKeyRevoked        AuditAction = "key.revoked"
	AuditMemberAdded       AuditAction = "member.added"
	AuditMemberRoleChanged AuditAction = "member.role_changed"
	AuditMemberRemoved     AuditAction = "member.removed"
)

// AuditEntry is one change in an organization: who (Actor), what (Action on the key or member
// SubjectID, described by Detail: the key's name, the member's e-mail and role), when and from
// which address.
type AuditEntry struct {
	ID          int64
	OrganizerID string
	Actor       Actor
	Action      AuditAction
	SubjectID   string
	Detail      string
	At          time.Time
}

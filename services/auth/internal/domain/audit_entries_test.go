package domain_test

import (
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/apikey"
	"github.com/podiumhq/podium/services/auth/internal/domain"
)

func TestAuditEntriesDescribeTheChange(t *testing.T) {
	t0 := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	t1 := t0.Add(time.Minute)
	ana := domain.Actor{Email: "ana@example.com", Address: "203.0.113.7"}
	k := domain.Key{ID: "key_1", OrganizerID: "org_1", Type: domain.SecretKey, Mode: apikey.Live, Name: "backend"}
	test := domain.Key{ID: "key_2", OrganizerID: "org_1", Type: domain.PublishableKey, Mode: apikey.Test, Name: "sandbox"}
	m := domain.Member{ID: "mbr_1", OrganizerID: "org_1", Email: "bo@example.com", Role: domain.RoleAdmin, CreatedAt: t0, UpdatedAt: t0}
	demoted := m
	demoted.Role, demoted.UpdatedAt = domain.RoleMember, t1

	for _, tc := range []struct {
		got  domain.AuditEntry
		want domain.AuditEntry
	}{
		{domain.KeyAudit(ana, domain.AuditKeyRevoked, k, t1),
			domain.AuditEntry{OrganizerID: "org_1", Actor: ana, Action: "key.revoked", SubjectID: "key_1", Detail: "secret key backend", At: t1}},
		{domain.KeyAudit(ana, domain.AuditKeyCreated, test, t0),
			domain.AuditEntry{OrganizerID: "org_1", Actor: ana, Action: "key.created", SubjectID: "key_2", Detail: "test publishable key sandbox", At: t0}},
		{domain.MemberAdded(ana, m),
			domain.AuditEntry{OrganizerID: "org_1", Actor: ana, Action: "member.added", SubjectID: "mbr_1", Detail: "bo@example.com as admin", At: t0}},
		{domain.MemberRoleChanged(ana, m, demoted),
			domain.AuditEntry{OrganizerID: "org_1", Actor: ana, Action: "member.role_changed", SubjectID: "mbr_1", Detail: "bo@example.com: admin → member", At: t1}},
		{domain.MemberRemoved(domain.OperatorActor(""), demoted, t1),
			domain.AuditEntry{OrganizerID: "org_1", Actor: domain.Actor{Email: "operator"}, Action: "member.removed", SubjectID: "mbr_1", Detail: "bo@example.com (member)", At: t1}},
	} {
		if tc.got != tc.want {
			t.Errorf("entry %+v\nwant  %+v", tc.got, tc.want)
		}
	}
}

package cli

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/podiumhq/podium/libs/admin/command"
	"github.com/podiumhq/podium/services/auth/internal/api"
)

// Every text of an answer is printed escaped (command.Text; table cells by command.PrintList).
var text = command.Text

func printOrganizer(out io.Writer, o api.CreatedOrganizerView) error {
	_, err := fmt.Fprintf(out, "Created organizer %s (%s) at %s.\n", text(o.ID), text(o.Name), command.Stamp(&o.CreatedAt))
	if err == nil && o.Owner != nil {
		err = printMemberAs("Added")(out, *o.Owner)
	}
	return err
}

func printOrganizers(out io.Writer, l command.List[api.OrganizerView]) error {
	return command.PrintList(out, l, []string{"ID", "NAME", "CREATED"}, func(o api.OrganizerView) []string {
		return []string{o.ID, o.Name, command.Stamp(&o.CreatedAt)}
	})
}

// printMemberAs prints a member after the verb of what was done to it.
func printMemberAs(done string) func(io.Writer, api.MemberView) error {
	return func(out io.Writer, m api.MemberView) error {
		_, err := fmt.Fprintf(out, "%s member %s (%s, %s) of organizer %s.\n", done, text(m.ID), text(m.Email), text(m.Role), text(m.OrganizerID))
		return err
	}
}

func printMembers(out io.Writer, l command.List[api.MemberView]) error {
	return command.PrintList(out, l, []string{"ID", "EMAIL", "ROLE", "CREATED", "UPDATED"}, func(m api.MemberView) []string {
		return []string{m.ID, m.Email, m.Role, command.Stamp(&m.CreatedAt), command.Stamp(&m.UpdatedAt)}
	})
}

func printCreatedKey(out io.Writer, k api.CreatedKeyView) error {
	_, err := fmt.Fprintf(out, "Created %s key %s (%s) for organizer %s.\nMode: %s\n%s: %s\nExpires: %s\n\n    %s\n\n"+
		"This key will not be shown again: store it now, for example in a secret manager.\n",
		text(k.Type), text(k.ID), text(k.Name), text(k.OrganizerID), text(k.Mode), accessLabel(k.KeyView), text(access(k.KeyView)), command.Stamp(k.ExpiresAt), text(k.Key))
	return err
}

func printRevokedKey(out io.Writer, k api.KeyView) error {
	_, err := fmt.Fprintf(out, "Key %s (%s, %s...%s) is revoked since %s.\n", text(k.ID), text(k.Name), text(k.Prefix), text(k.Last4), command.Stamp(k.RevokedAt))
	return err
}

func printKeys(out io.Writer, l command.List[api.KeyView]) error {
	now := time.Now()
	return command.PrintList(out, l, []string{"ID", "TYPE", "MODE", "NAME", "KEY", "SCOPES / ORIGINS", "CREATED", "LAST USED", "EXPIRES", "STATUS"}, func(k api.KeyView) []string {
		return []string{k.ID, k.Type, k.Mode, k.Name, k.Prefix + "..." + k.Last4, access(k),
			command.Stamp(&k.CreatedAt), command.Stamp(k.LastUsedAt), command.Stamp(k.ExpiresAt), status(k, now)}
	})
}

func printAuditLog(out io.Writer, l command.List[api.AuditEntryView]) error {
	return command.PrintList(out, l, []string{"AT", "ACTOR", "ADDRESS", "ACTION", "SUBJECT", "DETAIL"}, func(e api.AuditEntryView) []string {
		return []string{command.Stamp(&e.At), e.Actor, command.OrDash(e.Address), e.Action, e.SubjectID, e.Detail}
	})
}

func accessLabel(k api.KeyView) string {
	if k.Type == "publishable" {
		return "Allowed origins"
	}
	return "Scopes"
}

func access(k api.KeyView) string {
	if k.Type == "publishable" {
		return strings.Join(k.AllowedOrigins, ",")
	}
	return strings.Join(k.Scopes, ",")
}

func status(k api.KeyView, now time.Time) string {
	switch {
	case k.RevokedAt != nil:
		return "revoked"
	case k.ExpiresAt != nil && !k.ExpiresAt.After(now):
		return "expired"
	}
	return "active"
}

package e2e

import (
	"strconv"
	"testing"
)

// TestReceiptMailsHaveACooldown: two sends of one event's receipts to one address, from two
// client addresses, queue one mail: the second is refused with 429, Retry-After and a message
// to check the inbox; a send to another recipient still goes out.
func TestReceiptMailsHaveACooldown(t *testing.T) {
	o := newTenant(t)
	ev := importEvent(t, o.org, eventDoc(category("open", nil)))
	const ana, bea = "ana.cooldown@example.com", "bea.cooldown@example.com"
	for name, email := range map[string]string{"Ana Cooldown": ana, "Bea Cooldown": bea} {
		a := athlete(name, "FEMALE", "1990-01-01")
		a["email"] = email
		createRegistration(t, o.secret.Key, registrationBody(ev, "open", name, a))
	}
	if res := receipts(t, o.publishable.Key, ev.ID, "send", ana); res.status != 201 {
		t.Fatalf("first send: %d %s", res.status, res.body)
	}
	again := receipts(t, o.publishable.Key, ev.ID, "send", "Ana.Cooldown@Example.com") // another client address (visitor)
	wantError(t, again, 429, "check the inbox")
	if ra, err := strconv.Atoi(again.header.Get("Retry-After")); err != nil || ra < 1 || ra > 600 {
		t.Fatalf("Retry-After %q, want the rest of the 10-minute cooldown", again.header.Get("Retry-After"))
	}
	if res := receipts(t, o.publishable.Key, ev.ID, "send", bea); res.status != 201 {
		t.Fatalf("a send to another recipient: %d %s", res.status, res.body)
	}
	waitForMail(t, bea)
	waitForMail(t, ana)
	// The refused send queued nothing: the first mail is the only one.
	if n := len(mailsTo(ana)); n != 1 {
		t.Fatalf("%d mails to %s, want 1", n, ana)
	}
}

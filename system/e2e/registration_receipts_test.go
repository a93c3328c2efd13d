package e2e

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/mail/mailcatch"
)

// visitor returns the headers of a browser on site with the publishable key, each call from
// another client address (the suite's gateways trust X-Forwarded-For from 127.0.0.1), since the
// gateway allows only a few receipt requests per address and minute.
func visitor(key string) map[string]string {
	h := browser(key, site)
	h["X-Forwarded-For"] = newVisitorIP()
	return h
}

// receipts posts to the event's receipt endpoint (lookup or send) for email; the answer must
// be one the document describes.
func receipts(t *testing.T, publishable, eventID, action, email string) response {
	t.Helper()
	res := do(t, req{"POST", gw("/browser/events/" + eventID + "/registration-receipts/" + action), visitor(publishable), map[string]any{"email": email}})
	conforms(t, map[string]string{"lookup": "browserLookupReceipts", "send": "browserSendReceipts"}[action], res)
	return res
}

// TestReceiptsThroughTheGateway looks up and sends receipts of a published event with a
// publishable key; the e-mail reaches the stack's SMTP catcher, addressed to the asker only.
func TestReceiptsThroughTheGateway(t *testing.T) {
	o := newTenant(t)
	ev := importEvent(t, o.org, eventDoc(category("open", nil), category("pairs", map[string]any{"teamSize": map[string]any{"min": 2, "max": 2}})))
	const addr = "ana.receipts@example.com"
	ana := athlete("Ana Ruiz", "FEMALE", "1990-01-01")
	ana["email"] = "Ana.Receipts@Example.com"
	solo := createRegistration(t, o.secret.Key, registrationBody(ev, "open", "Solo", ana))
	// An athlete other than the first counts too.
	pair := createRegistration(t, o.secret.Key, registrationBody(ev, "pairs", "Pair", athlete("Bea Ruiz", "FEMALE", "1991-01-01"), ana))
	other := createRegistration(t, o.secret.Key, registrationBody(ev, "open", "Other", athlete("Carla Receipts", "FEMALE", "1992-01-01")))
	// A cancelled registration is no receipt.
	gone := createRegistration(t, o.secret.Key, registrationBody(ev, "open", "Gone", ana))
	if res := send(t, req{"DELETE", gw("/organizer/registrations/" + gone.Tickets[0].TicketID), secret(o.secret.Key), nil}); res.status != 200 {
		t.Fatalf("DELETE: %d %s", res.status, res.body)
	}

	type lookup struct {
		Found *bool `json:"found"`
		Count *int  `json:"count"`
	}
	for email, want := range map[string]int{addr: 2, "ANA.RECEIPTS@EXAMPLE.COM": 2, "nobody@example.com": 0} {
		res := receipts(t, o.publishable.Key, ev.ID, "lookup", email)
		got := decode[lookup](t, res)
		if res.status != 201 || got.Found == nil || *got.Found != (want > 0) || got.Count == nil || *got.Count != want || len(decode[map[string]any](t, res)) != 2 {
			t.Fatalf("lookup %s: %d %s, want count %d and nothing else", email, res.status, res.body, want)
		}
	}

	type sent struct {
		Accepted bool `json:"accepted"`
		Count    int  `json:"count"`
	}
	if res := receipts(t, o.publishable.Key, ev.ID, "send", "nobody@example.com"); res.status != 201 || decode[sent](t, res) != (sent{true, 0}) {
		t.Fatalf("send to an unknown address: %d %s", res.status, res.body)
	}
	if res := receipts(t, o.publishable.Key, ev.ID, "send", addr); res.status != 201 || decode[sent](t, res) != (sent{true, 2}) {
		t.Fatalf("send: %d %s", res.status, res.body)
	}
	m := waitForMail(t, addr)
	if !slices.Equal(m.To, []string{addr}) || !strings.Contains(m.Subject, "E2E Throwdown") {
		t.Fatalf("mail to %v: %q", m.To, m.Subject)
	}
	for _, s := range []string{solo.OrderID, pair.OrderID, solo.Tickets[0].TicketID, pair.Tickets[0].TicketID, pair.Tickets[1].TicketID, "team Pair"} {
		if !strings.Contains(m.Body, s) {
			t.Fatalf("the receipt mail lacks %s:\n%s", s, m.Body)
		}
	}
	for _, s := range []string{other.OrderID, gone.OrderID, "Carla"} {
		if strings.Contains(m.Body, s) {
			t.Fatalf("the receipt mail shows %s, which is not the asker's:\n%s", s, m.Body)
		}
	}
	// The unknown address was sent nothing (its request came first and queued no mail).
	if n := len(mailsTo("nobody@example.com")); n != 0 {
		t.Fatalf("%d mails to an address without receipts", n)
	}
}

// TestReceiptsNeedAPublicEvent: the browser surface sees only published, non-private events,
// so the receipts of a draft or a private event are a 404, and the e-mail is checked at the edge.
func TestReceiptsNeedAPublicEvent(t *testing.T) {
	o := newTenant(t)
	const addr = "hidden.receipts@example.com"
	for name, change := range map[string]func(doc map[string]any){
		"draft":   func(doc map[string]any) { doc["status"] = "DRAFT" },
		"private": func(doc map[string]any) { doc["private"] = true },
	} {
		t.Run(name, func(t *testing.T) {
			doc := eventDoc(category("open", nil))
			change(doc)
			ev := importEvent(t, o.org, doc)
			a := athlete("Hidden Athlete", "MALE", "1990-01-01")
			a["email"] = addr
			createRegistration(t, o.secret.Key, registrationBody(ev, "open", "Hidden", a))
			for _, action := range []string{"lookup", "send"} {
				wantError(t, receipts(t, o.publishable.Key, ev.ID, action, addr), 404, "event "+ev.ID+" not found")
			}
		})
	}
	ev := importEvent(t, o.org, eventDoc(category("open", nil)))
	for email, problem := range map[string]string{
		"not-an-email":                     "email must be a valid e-mail address",
		"":                                 "email",
		strings.Repeat("a", 250) + "@x.io": "email must be at most 254 characters long",
	} {
		wantProblems(t, "browserLookupReceipts", receipts(t, o.publishable.Key, ev.ID, "lookup", email), problem)
	}
	if n := len(mailsTo(addr)); n != 0 {
		t.Fatalf("%d mails about hidden events", n)
	}
}

// waitForMail waits until the stack's SMTP catcher has received a message to addr, and fails
// unless it is the only one.
func waitForMail(t *testing.T, addr string) mailcatch.Message {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	m, err := sys.WaitMail(ctx, mailcatch.To(addr))
	if err != nil {
		t.Fatalf("mail to %s: %v", addr, err)
	}
	if n := len(mailsTo(addr)); n > 1 {
		t.Fatalf("%d mails to %s, want 1", n, addr)
	}
	return m
}

func mailsTo(addr string) []mailcatch.Message {
	return slices.DeleteFunc(sys.Mails(), func(m mailcatch.Message) bool { return !slices.Contains(m.To, addr) })
}

package stack

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/smtp"
	"strings"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/mail/mailcatch"
	"github.com/podiumhq/podium/libs/testkit"
)

func TestMailCatcherLogsMessagesAndServesItsInbox(t *testing.T) {
	var out strings.Builder
	s := &Stack{opts: Options{MailInboxPort: -1, Output: &out}}
	if err := s.startMail(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.stopMail() })
	if !strings.HasPrefix(s.MailInboxURL, "http://localhost:") {
		t.Fatalf("MailInboxURL %q", s.MailInboxURL)
	}
	raw := "From: no-reply@podium.test\r\nTo: ana@example.com\r\nSubject: Sign in\r\n\r\nhttps://console.podium.localhost/sign-in?token=t1\r\n"
	if err := smtp.SendMail(s.SMTPAddr, nil, "no-reply@podium.test", []string{"ana@example.com"}, []byte(raw)); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	if _, err := s.WaitMail(ctx, mailcatch.To("ana@example.com")); err != nil {
		t.Fatal(err)
	}
	if got, want := out.String(), "smtp         mail to ana@example.com: Sign in\n"; got != want {
		t.Errorf("logged %q, want %q", got, want)
	}
	if n := len(s.Mails()); n != 1 {
		t.Errorf("%d mails, want 1", n)
	}

	res := testkit.Do(t, http.MethodGet, s.MailInboxURL+"/messages", nil, nil)
	var msgs []mailcatch.Message
	if err := json.Unmarshal(res.Raw, &msgs); err != nil || len(msgs) != 1 || msgs[0].Subject != "Sign in" {
		t.Fatalf("inbox answered %d %s (%v)", res.Status, res.Raw, err)
	}
}

func TestMailInboxIsNotServedByDefault(t *testing.T) {
	s := &Stack{opts: Options{Output: io.Discard}}
	if err := s.startMail(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.stopMail() })
	if s.MailInboxURL != "" || s.mailInbox != nil {
		t.Fatalf("inbox served at %q", s.MailInboxURL)
	}
}

package mailcatch_test

import (
	"context"
	"errors"
	"net"
	"net/smtp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/config"
	"github.com/podiumhq/podium/libs/mail"
	"github.com/podiumhq/podium/libs/mail/mailcatch"
)

// at is the test clock's time, which every kept message carries.
var at = time.Date(2026, 5, 4, 9, 30, 0, 0, time.UTC)

func start(t *testing.T, o mailcatch.Options) *mailcatch.Catcher {
	t.Helper()
	o.Now = func() time.Time { return at }
	c, err := mailcatch.Start("127.0.0.1:0", o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// send delivers m to c through libs/mail's Sender.
func send(t *testing.T, c *mailcatch.Catcher, m mail.Message) {
	t.Helper()
	host, port, _ := net.SplitHostPort(c.Addr())
	p, _ := strconv.Atoi(port)
	s := mail.NewSender(config.SMTP{SMTPHost: host, SMTPPort: p, SMTPFrom: "Podium <no-reply@podium.test>"}, 5*time.Second)
	if err := s.Send(t.Context(), m); err != nil {
		t.Fatal(err)
	}
}

func TestCatcherKeepsDecodedMessages(t *testing.T) {
	seen := make(chan mailcatch.Message, 1)
	c := start(t, mailcatch.Options{OnMessage: func(m mailcatch.Message) { seen <- m }})
	subject := "Inscripción confirmada – Café Trail"
	body := "Hola Ana,\n\nsign in: https://console.podium.localhost/sign-in?token=" + strings.Repeat("x", 90) + "\nGracias, ñandú.\n"
	send(t, c, mail.Message{To: "ana@example.com", Subject: subject, Body: body})

	msgs := c.Messages()
	if len(msgs) != 1 {
		t.Fatalf("%d messages kept, want 1", len(msgs))
	}
	m := msgs[0]
	if m.From != "no-reply@podium.test" || len(m.To) != 1 || m.To[0] != "ana@example.com" || !m.At.Equal(at) {
		t.Errorf("envelope %q %q at %v", m.From, m.To, m.At)
	}
	if m.Subject != subject {
		t.Errorf("subject %q, want %q", m.Subject, subject)
	}
	if strings.ReplaceAll(m.Body, "\r\n", "\n") != body {
		t.Errorf("body %q, want %q", m.Body, body)
	}
	if !strings.Contains(string(m.Raw), "Content-Transfer-Encoding: quoted-printable") {
		t.Errorf("raw message is not the quoted-printable one sent:\n%s", m.Raw)
	}
	if got := <-seen; got.Subject != subject {
		t.Errorf("OnMessage got %q", got.Subject)
	}
}

func TestCatcherDecodesBase64Bodies(t *testing.T) {
	c := start(t, mailcatch.Options{})
	raw := "From: a@example.com\r\nTo: b@example.com\r\nSubject: =?UTF-8?B?w5xiZXI=?=\r\n" +
		"Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n" +
		"SGVsbG8s\r\nIHfDtnJsZA==\r\n"
	if err := smtp.SendMail(c.Addr(), nil, "a@example.com", []string{"b@example.com", "c@example.com"}, []byte(raw)); err != nil {
		t.Fatal(err)
	}
	m := c.Messages()[0]
	if m.Subject != "Über" || m.Body != "Hello, wörld" || strings.Join(m.To, ",") != "b@example.com,c@example.com" {
		t.Fatalf("kept %+v", m)
	}
}

func TestWaitFindsKeptAndLaterMessages(t *testing.T) {
	c := start(t, mailcatch.Options{})
	send(t, c, mail.Message{To: "ana@example.com", Subject: "first", Body: "1"})
	if m, err := c.Wait(t.Context(), mailcatch.To("ana@example.com")); err != nil || m.Subject != "first" {
		t.Fatalf("Wait for a kept message: %+v, %v", m, err)
	}

	later := make(chan mailcatch.Message, 1)
	waitErr := make(chan error, 1)
	go func() {
		m, err := c.Wait(t.Context(), mailcatch.To("bea@example.com"))
		later <- m
		waitErr <- err
	}()
	send(t, c, mail.Message{To: "carla@example.com", Subject: "not hers", Body: "2"})
	send(t, c, mail.Message{To: "bea@example.com", Subject: "hers", Body: "3"})
	if m, err := <-later, <-waitErr; err != nil || m.Subject != "hers" {
		t.Fatalf("Wait for a later message: %+v, %v", m, err)
	}

	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := c.Wait(ctx, mailcatch.To("nobody@example.com")); !errors.Is(err, context.Canceled) {
		t.Fatalf("Wait with a cancelled context: %v", err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Wait(t.Context(), mailcatch.To("nobody@example.com")); !errors.Is(err, mailcatch.ErrClosed) {
		t.Fatalf("Wait on a closed catcher: %v", err)
	}
}

package regtest

import (
	"fmt"
	"io"
	"net"
	"net/mail"
	"strings"
	"sync"
	"testing"
	"time"

	gosmtp "github.com/emersion/go-smtp"

	"github.com/podiumhq/podium/libs/testkit"
)

// Message is a delivered e-mail.
type Message struct {
	From, To, Subject, Body string
}

// MailServer is an in-process SMTP server that keeps what it receives.
type MailServer struct {
	Port int
	mu   sync.Mutex
	msgs []Message
	srv  *gosmtp.Server
}

// StartMailServer starts an SMTP server on a free port until the test ends.
func StartMailServer(t testing.TB) *MailServer {
	ln, err := (&net.ListenConfig{}).Listen(t.Context(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	m := &MailServer{Port: ln.Addr().(*net.TCPAddr).Port}
	m.srv = gosmtp.NewServer(gosmtp.BackendFunc(func(*gosmtp.Conn) (gosmtp.Session, error) { return &session{m: m}, nil }))
	m.srv.Domain = "localhost"
	m.srv.AllowInsecureAuth = true
	go func() { _ = m.srv.Serve(ln) }()
	t.Cleanup(func() { _ = m.srv.Close() })
	return m
}

// Messages returns what was delivered so far.
func (m *MailServer) Messages() []Message {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]Message(nil), m.msgs...)
}

// Wait returns the delivered messages once there are at least n, or fails after 10s.
func (m *MailServer) Wait(t testing.TB, n int) []Message {
	t.Helper()
	var got []Message
	testkit.Eventually(t, 10*time.Second, func() string {
		if got = m.Messages(); len(got) < n {
			return fmt.Sprintf("%d messages delivered within 10s, want %d", len(got), n)
		}
		return ""
	})
	return got
}

type session struct {
	m    *MailServer
	from string
	to   []string
}

func (s *session) Mail(from string, _ *gosmtp.MailOptions) error { s.from = from; return nil }
func (s *session) Rcpt(to string, _ *gosmtp.RcptOptions) error   { s.to = append(s.to, to); return nil }
func (s *session) Reset()                                        { s.from, s.to = "", nil }
func (s *session) Logout() error                                 { return nil }

func (s *session) Data(r io.Reader) error {
	msg, err := mail.ReadMessage(r)
	if err != nil {
		return err
	}
	body, err := io.ReadAll(msg.Body)
	if err != nil {
		return err
	}
	text := string(body)
	if strings.EqualFold(msg.Header.Get("Content-Transfer-Encoding"), "quoted-printable") {
		text = decodeQP(text)
	}
	subject, _ := new(mimeDecoder).decode(msg.Header.Get("Subject"))
	s.m.mu.Lock()
	s.m.msgs = append(s.m.msgs, Message{From: s.from, To: strings.Join(s.to, ","), Subject: subject, Body: text})
	s.m.mu.Unlock()
	return nil
}

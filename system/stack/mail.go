package stack

import (
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-smtp"
)

// Mail is a message the stack's SMTP catcher received; Body is decoded from its transfer
// encoding.
type Mail struct {
	From    string
	To      []string
	Subject string
	Body    string
	Raw     []byte
}

// mailCatcher is a local SMTP server that keeps every message instead of delivering it, so
// `make run` and the tests can see what the services send.
type mailCatcher struct {
	srv  *smtp.Server
	addr string
	out  io.Writer
	mu   sync.Mutex
	msgs []Mail
}

func startMailCatcher(port int, out io.Writer) (*mailCatcher, error) {
	ln, err := (&net.ListenConfig{}).Listen(context.Background(), "tcp", fmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		return nil, fmt.Errorf("stack: SMTP catcher: %w", err)
	}
	c := &mailCatcher{addr: ln.Addr().String(), out: out}
	c.srv = smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) { return &mailSession{c: c}, nil }))
	c.srv.Domain = "localhost"
	c.srv.ReadTimeout, c.srv.WriteTimeout = 30*time.Second, 30*time.Second
	c.srv.AllowInsecureAuth = true
	go c.srv.Serve(ln) //nolint:errcheck // ends with Close
	return c, nil
}

func (c *mailCatcher) add(m Mail) {
	c.mu.Lock()
	c.msgs = append(c.msgs, m)
	c.mu.Unlock()
	fmt.Fprintf(c.out, "%-12s mail to %s: %s\n", "smtp", strings.Join(m.To, ", "), m.Subject)
}

func (c *mailCatcher) messages() []Mail {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Mail(nil), c.msgs...)
}

// mailSession collects one SMTP transaction.
type mailSession struct {
	c    *mailCatcher
	from string
	to   []string
}

func (s *mailSession) Mail(from string, _ *smtp.MailOptions) error { s.from = from; return nil }
func (s *mailSession) Rcpt(to string, _ *smtp.RcptOptions) error   { s.to = append(s.to, to); return nil }
func (s *mailSession) Reset()                                      { s.from, s.to = "", nil }
func (s *mailSession) Logout() error                               { return nil }

func (s *mailSession) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	m := Mail{From: s.from, To: s.to, Raw: raw}
	if msg, err := mail.ReadMessage(strings.NewReader(string(raw))); err == nil {
		dec := new(mime.WordDecoder)
		if subj, err := dec.DecodeHeader(msg.Header.Get("Subject")); err == nil {
			m.Subject = subj
		}
		m.Body = decodeBody(msg.Header.Get("Content-Transfer-Encoding"), msg.Body)
	}
	s.c.add(m)
	return nil
}

// decodeBody reads a single-part body as written, undoing its transfer encoding (mailers
// send text as quoted-printable, which breaks long lines).
func decodeBody(encoding string, body io.Reader) string {
	switch strings.ToLower(strings.TrimSpace(encoding)) {
	case "quoted-printable":
		body = quotedprintable.NewReader(body)
	case "base64":
		body = base64.NewDecoder(base64.StdEncoding, body) // line breaks are skipped
	}
	raw, _ := io.ReadAll(body)
	return string(raw)
}

// Mails returns every message the stack's SMTP catcher has received.
func (s *Stack) Mails() []Mail {
	if s.mail == nil {
		return nil
	}
	return s.mail.messages()
}

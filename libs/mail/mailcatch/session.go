package mailcatch

import (
	"bytes"
	"encoding/base64"
	"io"
	"mime"
	"mime/quotedprintable"
	"net/mail"
	"slices"
	"strings"

	"github.com/emersion/go-smtp"
)

// session collects one SMTP transaction.
type session struct {
	c    *Catcher
	from string
	to   []string
}

func (s *session) Mail(from string, _ *smtp.MailOptions) error { s.from = from; return nil }
func (s *session) Rcpt(to string, _ *smtp.RcptOptions) error   { s.to = append(s.to, to); return nil }
func (s *session) Reset()                                      { s.from, s.to = "", nil }
func (s *session) Logout() error                               { return nil }

func (s *session) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	m := Message{From: s.from, To: slices.Clone(s.to), Raw: raw}
	if msg, err := mail.ReadMessage(bytes.NewReader(raw)); err == nil {
		if subject, err := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject")); err == nil {
			m.Subject = subject
		}
		m.Body = decodeBody(msg.Header.Get("Content-Transfer-Encoding"), msg.Body)
	}
	s.c.keep(m)
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

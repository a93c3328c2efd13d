// Package mail sends plain-text e-mail over SMTP.
package mail

import (
	"context"
	"fmt"
	"time"

	gomail "github.com/wneessen/go-mail"

	"github.com/podiumhq/podium/libs/config"
)

// Message is one plain-text (UTF-8) e-mail to one recipient.
type Message struct {
	To      string
	Subject string
	Body    string
}

// Sender sends messages through one SMTP server, as one sender.
type Sender struct {
	cfg     config.SMTP
	timeout time.Duration
}

// NewSender returns a Sender for cfg; timeout bounds one delivery (zero means 10 s).
func NewSender(cfg config.SMTP, timeout time.Duration) *Sender {
	if timeout == 0 {
		timeout = 10 * time.Second
	}
	return &Sender{cfg: cfg, timeout: timeout}
}

// Send delivers m, with STARTTLS when the server offers it and PLAIN authentication when a
// username is configured.
func (s *Sender) Send(ctx context.Context, m Message) error {
	msg := gomail.NewMsg()
	if err := msg.From(s.cfg.SMTPFrom); err != nil {
		return fmt.Errorf("smtp: from: %w", err)
	}
	if err := msg.To(m.To); err != nil {
		return fmt.Errorf("smtp: to: %w", err)
	}
	msg.Subject(m.Subject)
	msg.SetDate()
	msg.SetMessageID()
	msg.SetBodyString(gomail.TypeTextPlain, m.Body)
	opts := []gomail.Option{
		gomail.WithTLSPolicy(gomail.TLSOpportunistic), gomail.WithPort(s.cfg.SMTPPort), gomail.WithTimeout(s.timeout),
	}
	if s.cfg.SMTPUsername != "" {
		opts = append(opts, gomail.WithSMTPAuth(gomail.SMTPAuthPlain), gomail.WithUsername(s.cfg.SMTPUsername), gomail.WithPassword(s.cfg.SMTPPassword))
	}
	c, err := gomail.NewClient(s.cfg.SMTPHost, opts...)
	if err != nil {
		return fmt.Errorf("smtp: client: %w", err)
	}
	if err := c.DialAndSendWithContext(ctx, msg); err != nil {
		return fmt.Errorf("smtp: send: %w", err)
	}
	return nil
}

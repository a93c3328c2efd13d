package stack

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/podiumhq/podium/libs/mail/mailcatch"
)

// startMail starts the SMTP catcher (libs/mail/mailcatch), which keeps every message the
// services send and logs each as "smtp", and its inbox page when Options.MailInboxPort is set.
func (s *Stack) startMail() error {
	out := s.opts.Output
	c, err := mailcatch.Start(fmt.Sprintf("127.0.0.1:%d", s.opts.SMTPPort), mailcatch.Options{OnMessage: func(m mailcatch.Message) {
		fmt.Fprintf(out, "%-12s mail to %s: %s\n", "smtp", strings.Join(m.To, ", "), m.Subject)
	}})
	if err != nil {
		return fmt.Errorf("stack: SMTP catcher: %w", err)
	}
	s.mail, s.SMTPAddr = c, c.Addr()
	if s.opts.MailInboxPort == 0 {
		return nil
	}
	ln, err := (&net.ListenConfig{}).Listen(context.Background(), "tcp", "127.0.0.1:"+strconv.Itoa(max(s.opts.MailInboxPort, 0)))
	if err != nil {
		return fmt.Errorf("stack: mail inbox: %w", err)
	}
	s.mailInbox = &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: c.Inbox()}
	go func() { _ = s.mailInbox.Serve(ln) }()
	s.MailInboxURL = "http://localhost:" + strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	return nil
}

// Mails returns every message the stack's SMTP catcher has received, oldest first.
func (s *Stack) Mails() []mailcatch.Message {
	if s.mail == nil {
		return nil
	}
	return s.mail.Messages()
}

// WaitMail returns the first message, received already or to come, that match accepts; it
// gives up when ctx ends.
func (s *Stack) WaitMail(ctx context.Context, match func(mailcatch.Message) bool) (mailcatch.Message, error) {
	if s.mail == nil {
		return mailcatch.Message{}, mailcatch.ErrClosed
	}
	return s.mail.Wait(ctx, match)
}

// stopMail closes the inbox page and the SMTP catcher.
func (s *Stack) stopMail() error {
	var err error
	if s.mailInbox != nil {
		err = s.mailInbox.Close()
	}
	if s.mail != nil {
		err = errors.Join(err, s.mail.Close())
	}
	return err
}

// Package mail delivers the mail outbox over SMTP (libs/mail): a worker leases due messages,
// sends each and deletes it, or schedules another attempt with exponential backoff, so nothing
// is lost while the SMTP server is down.
package mail

import (
	"context"
	"log/slog"
	"time"

	smtpmail "github.com/podiumhq/podium/libs/mail"
	"github.com/podiumhq/podium/services/registration/internal/domain"
)

// Store is the mail outbox.
type Store interface {
	ClaimMail(ctx context.Context, limit int, lease time.Duration) ([]domain.QueuedMail, error)
	// MailSent and MailFailed change a claimed message only if its content is still the one
	// claimed.
	MailSent(ctx context.Context, m domain.QueuedMail) error
	MailFailed(ctx context.Context, m domain.QueuedMail, after time.Duration, cause error) error
}

// Worker sends the mail outbox.
type Worker struct {
	Store Store
	// Sender is libs/mail's Sender outside tests.
	Sender interface {
		Send(ctx context.Context, m smtpmail.Message) error
	}
	Log *slog.Logger
	// Poll is how often the outbox is read. Zero means one second.
	Poll time.Duration
}

// lease is how long a claimed message is reserved for one worker.
const lease = time.Minute

// Run sends due messages until ctx is done.
func (w *Worker) Run(ctx context.Context) error {
	poll := w.Poll
	if poll == 0 {
		poll = time.Second
	}
	for {
		w.sendDue(ctx)
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(poll):
		}
	}
}

func (w *Worker) sendDue(ctx context.Context) {
	for ctx.Err() == nil {
		batch, err := w.Store.ClaimMail(ctx, 20, lease)
		if err != nil {
			if ctx.Err() == nil {
				w.Log.ErrorContext(ctx, "mail outbox unreadable; retrying", "err", err)
			}
			return
		}
		for _, m := range batch {
			w.deliver(ctx, m)
		}
		if len(batch) < 20 {
			return
		}
	}
}

func (w *Worker) deliver(ctx context.Context, m domain.QueuedMail) {
	if err := w.Sender.Send(ctx, smtpmail.Message{To: m.Mail.To, Subject: m.Mail.Subject, Body: m.Mail.Body}); err != nil {
		after := Backoff(m.Attempts)
		w.Log.WarnContext(ctx, "mail delivery failed; will retry", "mail_id", m.ID, "attempt", m.Attempts, "retry_in", after, "err", err)
		if err := w.Store.MailFailed(ctx, m, after, err); err != nil && ctx.Err() == nil {
			w.Log.ErrorContext(ctx, "mail retry not recorded; the lease will expire", "mail_id", m.ID, "err", err)
		}
		return
	}
	if err := w.Store.MailSent(ctx, m); err != nil && ctx.Err() == nil {
		w.Log.ErrorContext(ctx, "sent mail not removed; it may be sent twice", "mail_id", m.ID, "err", err)
	}
}

// Backoff is the delay before attempt n+1: 2s doubling up to 10 minutes.
func Backoff(attempts int) time.Duration {
	d := 2 * time.Second
	for i := 1; i < attempts && d < 10*time.Minute; i++ {
		d *= 2
	}
	return min(d, 10*time.Minute)
}

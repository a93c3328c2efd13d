package app

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/podiumhq/podium/libs/mail"
	"github.com/podiumhq/podium/services/webhooks/internal/domain"
)

// Contact is someone of an organization to tell about its endpoints.
type Contact struct {
	Email string `json:"email"`
	Role  string `json:"role"`
}

// Contacts names an organization's owners and admins (auth's internal API).
type Contacts interface {
	Contacts(ctx context.Context, organizerID string) ([]Contact, error)
}

// Sender sends one mail (libs/mail's Sender outside tests).
type Sender interface {
	Send(ctx context.Context, m mail.Message) error
}

// Notifier tells an organization's owners and admins that an endpoint was disabled because
// it failed for days: each such endpoint once, retried until it succeeds.
type Notifier struct {
	Service  *Service
	Contacts Contacts
	Sender   Sender
	// Poll is how often the endpoints to tell about are looked for.
	Poll time.Duration
}

// Run tells about the endpoints every Poll until ctx ends; a failure waits for the next round.
func (n *Notifier) Run(ctx context.Context) error {
	return every(ctx, n.Poll, func(ctx context.Context) {
		if err := n.NotifyAll(ctx); err != nil && ctx.Err() == nil {
			n.Service.log.ErrorContext(ctx, "disabled endpoint notice failed; retrying", "err", err)
		}
	})
}

// notifyBatch is how many endpoints one round tells about at most.
const notifyBatch = 100

// Bounds of a notice: noticeLease is how long a round holds an endpoint (its contacts read and
// its mails sent, each bounded), noticeRounds how many rounds try it before it is given up,
// each failed round waiting twice as long as the one before, from noticeRetry to
// noticeMaxRetry.
const (
	noticeLease    = 5 * time.Minute
	noticeRounds   = 8
	noticeRetry    = time.Minute
	noticeMaxRetry = 4 * time.Hour
)

// NotifyAll tells about the endpoints waiting for their notice; one that fails (its
// organization unknown to auth, a mail refused) waits for a later round without holding the
// others back.
func (n *Notifier) NotifyAll(ctx context.Context) error {
	ids, err := n.Service.repo.EndpointsToNotify(ctx, n.Service.clock.Now(), notifyBatch)
	if err != nil {
		return err
	}
	var errs []error
	for _, id := range ids {
		if err := n.notify(ctx, id); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// notify leases endpoint id, mails the contacts not mailed yet about its disabling, outside
// any transaction, recording each mail sent, and marks it notified once all were; a failure
// leaves the others mailed and the notice to a later round, given up after noticeRounds.
func (n *Notifier) notify(ctx context.Context, id string) error {
	repo, now := n.Service.repo, n.Service.clock.Now()
	ep, rounds, ok, err := repo.LeaseNotice(ctx, id, now, now.Add(noticeLease))
	if err != nil || !ok {
		return err
	}
	err = n.tell(ctx, ep)
	if err == nil {
		return repo.MarkNotified(ctx, id, n.Service.clock.Now())
	}
	if rounds >= noticeRounds {
		n.Service.log.ErrorContext(ctx, "disabled endpoint notice given up", "endpointId", id, "organizerId", ep.OrganizerID, "rounds", rounds, "err", err)
		return errors.Join(err, repo.MarkNotified(ctx, id, n.Service.clock.Now()))
	}
	wait := min(noticeRetry<<(rounds-1), noticeMaxRetry)
	return errors.Join(err, repo.RetryNoticeAt(ctx, id, n.Service.clock.Now().Add(wait)))
}

// tell mails ep's organization's contacts that were not mailed about its disabling yet.
func (n *Notifier) tell(ctx context.Context, ep domain.Endpoint) error {
	if ep.DisabledAt == nil {
		return fmt.Errorf("endpoint %s has no disabling time", ep.ID)
	}
	contacts, err := n.Contacts.Contacts(ctx, ep.OrganizerID)
	if err != nil {
		return fmt.Errorf("contacts of %s: %w", ep.OrganizerID, err)
	}
	sent, err := n.Service.repo.NoticesSent(ctx, ep.ID, *ep.DisabledAt)
	if err != nil {
		return err
	}
	var errs []error
	for _, c := range contacts {
		if slices.Contains(sent, c.Email) {
			continue
		}
		if err := n.Sender.Send(ctx, disabledMail(c.Email, ep)); err != nil {
			errs = append(errs, fmt.Errorf("mail about %s: %w", ep.ID, err))
			continue
		}
		if err := n.Service.repo.RecordNoticeSent(ctx, ep.ID, *ep.DisabledAt, c.Email, n.Service.clock.Now()); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// disabledMail is the notice about ep to one contact.
func disabledMail(to string, ep domain.Endpoint) mail.Message {
	var b strings.Builder
	fmt.Fprintf(&b, "Podium disabled your webhook endpoint %s (%s): every delivery to it failed for 5 days.\n\n", ep.ID, ep.URL)
	b.WriteString("Events are no longer sent to it, and its pending deliveries were failed.\n")
	b.WriteString("Once the receiver answers again, enable the endpoint (the console's Webhooks tab, or PATCH\n")
	b.WriteString("with {\"enabled\": true} in the API) and recover the failed deliveries (POST .../recover).\n")
	return mail.Message{To: to, Subject: "Webhook endpoint disabled: " + ep.ID, Body: b.String()}
}

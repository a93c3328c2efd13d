package app

import (
	"context"
	"errors"
	"fmt"
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

// NotifyAll tells about the endpoints waiting for their notice; one that fails (its
// organization unknown to auth, a mail refused) waits for the next round without holding the
// others back.
func (n *Notifier) NotifyAll(ctx context.Context) error {
	ids, err := n.Service.repo.EndpointsToNotify(ctx, notifyBatch)
	if err != nil {
		return err
	}
	var errs []error
	for _, id := range ids {
		if _, err := n.Service.repo.NotifyEndpoint(ctx, id, n.Service.clock.Now(), n.tell); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

func (n *Notifier) tell(ctx context.Context, ep domain.Endpoint) error {
	contacts, err := n.Contacts.Contacts(ctx, ep.OrganizerID)
	if err != nil {
		return fmt.Errorf("contacts of %s: %w", ep.OrganizerID, err)
	}
	for _, c := range contacts {
		if err := n.Sender.Send(ctx, disabledMail(c.Email, ep)); err != nil {
			return fmt.Errorf("mail about %s: %w", ep.ID, err)
		}
	}
	return nil
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

package app

import (
	"context"
	"fmt"
	"strings"

	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/registration/internal/domain"
)

// publicEvent returns the caller's organizer's event when the browser surface may see it; a
// test key also sees an event not published yet (a preview), never a private one.
func (s *Service) publicEvent(ctx context.Context, caller identity.Principal, eventID string) (domain.Event, error) {
	e, err := s.event(ctx, caller, eventID)
	if err != nil {
		return domain.Event{}, err
	}
	if !e.Public() && (caller.Livemode() || e.Private) {
		return domain.Event{}, domain.NotFound("event", eventID)
	}
	return e, nil
}

// LookupReceipts counts the receipts (COMPLETED orders) of the event for email; it reveals
// nothing else.
func (s *Service) LookupReceipts(ctx context.Context, caller identity.Principal, eventID, email string) (int, error) {
	if _, err := s.publicEvent(ctx, caller, eventID); err != nil {
		return 0, err
	}
	list, err := s.repo.Receipts(ctx, scopeOf(caller), eventID, domain.NormalEmail(email))
	if err != nil {
		return 0, fmt.Errorf("lookup receipts: %w", err)
	}
	return len(list), nil
}

// SendReceipts queues one e-mail listing the event's receipts for email, to that address
// only; nothing is sent when there are none. It returns how many receipts were sent. An
// address mailed the event's receipts less than the cooldown ago is refused (a
// too many requests), and a mail to it still unsent is not queued again.
func (s *Service) SendReceipts(ctx context.Context, caller identity.Principal, eventID, email string) (int, error) {
	e, err := s.publicEvent(ctx, caller, eventID)
	if err != nil {
		return 0, err
	}
	list, err := s.repo.Receipts(ctx, scopeOf(caller), eventID, domain.NormalEmail(email))
	if err != nil {
		return 0, fmt.Errorf("send receipts: %w", err)
	}
	if len(list) == 0 {
		return 0, nil
	}
	m := domain.ReceiptMail(e, strings.TrimSpace(email), list)
	if !caller.Livemode() { // test receipts are kept as the organizer's test mail
		m.Test, m.OrganizerID = true, caller.OrganizerID
		if len(list) == 1 {
			m.OrderID = list[0].OrderID
		}
	}
	if err := s.repo.QueueReceiptMail(ctx, m, e.ID, s.clock.Now(), s.opts.ReceiptCooldown); err != nil {
		return 0, fmt.Errorf("send receipts: %w", err)
	}
	return len(list), nil
}

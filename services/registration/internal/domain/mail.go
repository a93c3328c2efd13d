package domain

import (
	"fmt"
	"strings"
	"time"

	"github.com/podiumhq/podium/libs/fault"
)

// Receipt is a COMPLETED order as its receipt shows it.
type Receipt struct {
	OrderID   string
	Amount    int64
	Currency  string
	CreatedAt time.Time
	Lines     []ReceiptLine
}

// ReceiptLine is one registration of a receipt.
type ReceiptLine struct {
	CategoryName string
	TeamName     string
	TicketIDs    []string
}

// ReceiptMail is the e-mail listing receipts of event e, sent to to.
func ReceiptMail(e Event, to string, receipts []Receipt) Mail {
	var b strings.Builder
	fmt.Fprintf(&b, "Your registrations for %s (%s)\n\n", e.Name, e.StartDate)
	for _, r := range receipts {
		fmt.Fprintf(&b, "Order %s, %s, %s\n", r.OrderID, r.CreatedAt.UTC().Format(DateLayout), money(r.Amount, r.Currency))
		for _, l := range r.Lines {
			fmt.Fprintf(&b, "  %s: team %s, tickets %s\n", l.CategoryName, l.TeamName, strings.Join(l.TicketIDs, ", "))
		}
		b.WriteString("\n")
	}
	b.WriteString("You receive this e-mail because receipts were requested for this address.\n")
	return Mail{To: to, Subject: fmt.Sprintf("Your registration receipts for %s", e.Name), Body: b.String(),
		DedupeKey: "receipts/" + e.ID + "/" + NormalEmail(to)}
}

// ReceiptCooldownError refuses a receipt mail to an address that was sent the event's receipts
// less than the cooldown ago; the caller may ask again after retryAfter.
func ReceiptCooldownError(retryAfter time.Duration) error {
	return fault.NewTooManyRequests("the receipts of this event were sent to this address a moment ago: check the inbox and the spam folder, "+
		"or ask again after Retry-After seconds", retryAfter)
}

// EmailChangeMail confirms to the new address that it is now the registration's e-mail.
func EmailChangeMail(r Registration, to string) Mail {
	ticket := ""
	if active := r.ActiveTickets(); len(active) > 0 {
		ticket = ", ticket " + active[0].ID
	}
	return Mail{
		Test: !r.Livemode, OrganizerID: r.OrganizerID, OrderID: r.OrderID,
		To:      to,
		Subject: "Your registration e-mail was updated",
		Body: fmt.Sprintf("This address is now the contact e-mail of the registration of team %s (%s%s).\n",
			r.TeamName, r.CategoryName, ticket),
	}
}

func money(minor int64, currency string) string {
	return fmt.Sprintf("%d.%02d %s", minor/100, minor%100, currency)
}

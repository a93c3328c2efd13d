// Package auth reads an organization's contacts from auth's internal API, for the notice of
// endpoints disabled for failing.
package auth

import (
	"context"
	"net/http"
	"net/url"

	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/libs/peer"
	"github.com/podiumhq/podium/services/webhooks/internal/app"
)

// Contacts calls GET /internal/v1/organizers/{organizerId}/contacts.
type Contacts struct{ peer *peer.Client }

var _ app.Contacts = Contacts{}

// New returns the contacts of auth at p (a client with auth's name and the service's signer).
func New(p *peer.Client) Contacts { return Contacts{peer: p} }

// ContactsAnswer is auth's answer.
type ContactsAnswer struct {
	Data []app.Contact `json:"data"`
}

// Contacts returns the owners and admins of organizerID.
func (c Contacts) Contacts(ctx context.Context, organizerID string) ([]app.Contact, error) {
	var out ContactsAnswer
	as := identity.Principal{OrganizerID: organizerID, KeyID: identity.Webhooks, KeyType: identity.Service}
	if err := c.peer.Do(ctx, as, http.MethodGet, "/internal/v1/organizers/"+url.PathEscape(organizerID)+"/contacts", nil, &out); err != nil {
		return nil, err
	}
	return out.Data, nil
}

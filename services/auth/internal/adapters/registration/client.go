// Package registration calls the registration service's internal test-data routes for the
// console's test-data tools, with an identity token auth signs for the signed-in member's
// organization in test mode. Whatever keeps an answer from coming (the service down, slow,
// refusing, failing) is one failure, app.ErrRegistrationUnavailable.
package registration

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/libs/peer"
	"github.com/podiumhq/podium/services/auth/internal/app"
	"github.com/podiumhq/podium/services/auth/internal/domain"
)

// Client implements app.Registration over libs/peer, whose tokens carry the test mode.
type Client struct {
	peer *peer.Client
	log  *slog.Logger
}

var _ app.Registration = (*Client)(nil)

// New returns a client of the registration service at base whose calls take at most timeout
// and carry the tokens signer mints.
func New(base string, timeout time.Duration, signer *identity.Signer, log *slog.Logger) *Client {
	return &Client{
		peer: peer.New(peer.Options{Name: identity.Registration, BaseURL: base, Timeout: timeout, Signer: signer}),
		log:  log,
	}
}

// principal is the console acting for the member in their organization's test mode.
func principal(as app.RegistrationCaller) identity.Principal {
	return identity.Principal{OrganizerID: as.OrganizerID, KeyID: "console:" + as.MemberID, KeyType: identity.Service, Test: true}
}

func organizerPath(as app.RegistrationCaller) string {
	return "/internal/organizers/" + url.PathEscape(as.OrganizerID)
}

// DeleteTestData sends DELETE /internal/organizers/{organizerId}/test-data.
func (c *Client) DeleteTestData(ctx context.Context, as app.RegistrationCaller) (domain.TestDataDeleted, error) {
	var out deletedDoc
	if err := c.do(ctx, as, http.MethodDelete, organizerPath(as)+"/test-data", &out); err != nil {
		return domain.TestDataDeleted{}, err
	}
	if out.Livemode == nil || *out.Livemode {
		return domain.TestDataDeleted{}, c.unavailable(http.MethodDelete, "test-data", fmt.Errorf("answer not marked livemode false"))
	}
	return out.Deleted.toDomain(), nil
}

// TestMail reads GET /internal/organizers/{organizerId}/test/mail.
func (c *Client) TestMail(ctx context.Context, as app.RegistrationCaller, p domain.Page) ([]domain.TestMail, int, error) {
	var out mailListDoc
	path := organizerPath(as) + "/test/mail?limit=" + strconv.Itoa(p.Limit) + "&offset=" + strconv.Itoa(p.Offset)
	if err := c.do(ctx, as, http.MethodGet, path, &out); err != nil {
		return nil, 0, err
	}
	list := make([]domain.TestMail, len(out.Data))
	for i, m := range out.Data {
		list[i] = m.toDomain()
	}
	return list, out.Total, nil
}

// do sends method path for as and decodes a 2xx answer into out; anything else is
// app.ErrRegistrationUnavailable.
func (c *Client) do(ctx context.Context, as app.RegistrationCaller, method, path string, out any) error {
	if err := c.peer.Do(ctx, principal(as), method, path, nil, out); err != nil {
		return c.unavailable(method, path, err)
	}
	return nil
}

func (c *Client) unavailable(method, path string, cause error) error {
	c.log.Warn("registration service unavailable", "method", method, "path", path, "error", cause)
	return fmt.Errorf("registration %s %s: %w: %w", method, path, app.ErrRegistrationUnavailable, cause)
}

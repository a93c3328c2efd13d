package app

import (
	"context"
	"time"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/services/auth/internal/domain"
)

// Registration is the registration service's internal API for the console's test-data tools:
// only ever the test data of the organizer the caller acts for.
type Registration interface {
	// DeleteTestData deletes the organizer's test data (registration's, checkout's and
	// webhooks') and counts what it deleted.
	DeleteTestData(ctx context.Context, as RegistrationCaller) (domain.TestDataDeleted, error)
	// TestMail returns a page of the test mail registration kept, newest first, and its count.
	TestMail(ctx context.Context, as RegistrationCaller, page domain.Page) ([]domain.TestMail, int, error)
}

// RegistrationCaller is the signed-in member the console calls the registration service for,
// always in test mode.
type RegistrationCaller struct {
	OrganizerID, MemberID string
}

// ErrRegistrationUnavailable is the registration service failing to answer the test-data
// tools; nothing else of the console depends on it.
var ErrRegistrationUnavailable = &fault.Error{
	Kind: fault.Unavailable, Code: "registration_unavailable", RetryAfter: 30 * time.Second,
	Problems: []string{"the test-data tools are unavailable right now"},
}

// registrationFor returns the member email as registration's caller for the organizer once
// their role allows managing it (the role that manages API keys). As for the webhooks
// service, the check's database place is given back before the call.
func (c *Console) registrationFor(ctx context.Context, email, organizerID string) (RegistrationCaller, error) {
	if c.reg == nil {
		return RegistrationCaller{}, ErrRegistrationUnavailable
	}
	var m domain.Membership
	err := c.withPlace(ctx, func() error {
		var err error
		m, err = c.authorize(ctx, email, organizerID, true)
		return err
	})
	return RegistrationCaller{OrganizerID: m.OrganizerID, MemberID: m.ID}, err
}

// DeleteTestData deletes the organizer's test data, for an owner or admin.
func (c *Console) DeleteTestData(ctx context.Context, email, organizerID string) (domain.TestDataDeleted, error) {
	as, err := c.registrationFor(ctx, email, organizerID)
	if err != nil {
		return domain.TestDataDeleted{}, err
	}
	return c.reg.DeleteTestData(ctx, as)
}

// TestMail returns a page of the organizer's kept test mail, for an owner or admin.
func (c *Console) TestMail(ctx context.Context, email, organizerID string, page domain.Page) ([]domain.TestMail, int, error) {
	as, err := c.registrationFor(ctx, email, organizerID)
	if err != nil {
		return nil, 0, err
	}
	return c.reg.TestMail(ctx, as, page)
}

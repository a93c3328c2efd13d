// Package peers deletes an organizer's test data at the peer services that keep some
// (checkout's sessions, the webhooks service's endpoints and deliveries) through libs/peer:
// DELETE /internal/organizers/{organizerId}/test-data, answered with the counts it deleted.
package peers

import (
	"context"
	"net/http"
	"net/url"
	"time"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/libs/peer"
	"github.com/podiumhq/podium/services/registration/internal/domain"
)

// TestData is a peer's test-data route.
type TestData struct {
	// name names the peer in errors and is the audience of its tokens (identity.Checkout,
	// identity.Webhooks).
	name string
	peer *peer.Client
}

// NewTestData returns the test-data route of the peer name at baseURL, called with identity
// tokens signer mints, each bounded by timeout.
func NewTestData(name, baseURL string, signer *identity.Signer, timeout time.Duration) TestData {
	return TestData{name: name, peer: peer.New(peer.Options{Name: name, BaseURL: baseURL, Timeout: timeout, Signer: signer})}
}

// DeleteTestData deletes the test data of as's organizer at the peer (as is a test principal,
// whose mode the token carries) and returns its counts; any failure is Unavailable: the wipe
// is retried as a whole.
func (t TestData) DeleteTestData(ctx context.Context, as identity.Principal) (domain.TestDataDeleted, error) {
	var d domain.TestDataDeleted
	path := "/internal/organizers/" + url.PathEscape(as.OrganizerID) + "/test-data"
	if err := t.peer.Do(ctx, as, http.MethodDelete, path, nil, &d); err != nil {
		return domain.TestDataDeleted{}, fault.NewUnavailable(t.name, err)
	}
	return d, nil
}

// Package peers deletes an organizer's test data at the peer services that keep some
// (checkout's sessions, the webhooks service's endpoints and deliveries) through libs/peer:
// DELETE /internal/organizers/{organizerId}/test-data, answered with the counts it deleted.
package peers

import (
	"context"
	"fmt"
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
//
// The tokens are minted here, by the client's transport, rather than by libs/peer: peer.Client
// signs only the organizer, key and key type of the principal it is given, and these calls must
// name the test mode (identity.Principal.Test) too.
func NewTestData(name, baseURL string, signer *identity.Signer, timeout time.Duration) TestData {
	return TestData{name: name, peer: peer.New(peer.Options{
		Name: name, BaseURL: baseURL, Timeout: timeout,
		Transport: signing{audience: name, signer: signer, next: http.DefaultTransport},
	})}
}

// DeleteTestData deletes the test data of as's organizer at the peer (as is a test principal)
// and returns its counts; any failure is Unavailable: the wipe is retried as a whole.
func (t TestData) DeleteTestData(ctx context.Context, as identity.Principal) (domain.TestDataDeleted, error) {
	var d domain.TestDataDeleted
	path := "/internal/organizers/" + url.PathEscape(as.OrganizerID) + "/test-data"
	if err := t.peer.Do(context.WithValue(ctx, principalKey{}, as), identity.Principal{}, http.MethodDelete, path, nil, &d); err != nil {
		return domain.TestDataDeleted{}, fault.NewUnavailable(t.name, err)
	}
	return d, nil
}

type principalKey struct{}

// signing sets the identity token of the principal in each request's context.
type signing struct {
	audience string
	signer   *identity.Signer
	next     http.RoundTripper
}

func (s signing) RoundTrip(r *http.Request) (*http.Response, error) {
	p, ok := r.Context().Value(principalKey{}).(identity.Principal)
	if !ok {
		return nil, fmt.Errorf("%s: no principal to sign for", s.audience)
	}
	tok, err := s.signer.Token(s.audience, p)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.audience, err)
	}
	r = r.Clone(r.Context())
	r.Header.Set(identity.Header, tok)
	return s.next.RoundTrip(r)
}

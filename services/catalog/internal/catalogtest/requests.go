package catalogtest

import (
	"net/http"
	"strings"
	"testing"

	"github.com/podiumhq/podium/libs/contracttest"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/catalog/contracts"
)

// InternalAPI is the catalog's internal contract. Every answer of an internal route that Do
// reads is checked against it.
var InternalAPI = contracttest.MustParse(contracts.Internal)

// Do sends a request to the service (testkit.Do) at path.
func (e *Env) Do(t testing.TB, method, path string, body any, headers map[string]string) testkit.Response {
	t.Helper()
	r := testkit.Do(t, method, e.URL+path, body, headers)
	if strings.HasPrefix(path, "/internal/") {
		InternalAPI.Served(t, method, path, r.Status, r.Raw)
	}
	return r
}

// Token mints an identity token for p as the gateway does for the routes it forwards.
func (e *Env) Token(t testing.TB, p identity.Principal) string {
	t.Helper()
	return e.Issuers.Token(t, identity.Gateway, identity.Catalog, p)
}

// Peer returns the headers of an internal call from the service named issuer (checkout or
// registration) on p's behalf.
func (e *Env) Peer(t testing.TB, issuer string, p identity.Principal) map[string]string {
	t.Helper()
	return map[string]string{identity.Header: e.Issuers.Token(t, issuer, identity.Catalog, p)}
}

// Checkout returns the headers of checkout's internal call for a purchase with a publishable
// key of the organizer.
func (e *Env) Checkout(t testing.TB, organizerID string) map[string]string {
	t.Helper()
	return e.Peer(t, identity.Checkout, identity.Principal{OrganizerID: organizerID, KeyID: "key_pub_" + organizerID, KeyType: identity.Publishable})
}

// Secret returns the headers of a request made with a secret key of the organizer.
func (e *Env) Secret(t testing.TB, organizerID string, scopes ...string) map[string]string {
	t.Helper()
	return map[string]string{identity.Header: e.Token(t, identity.Principal{
		OrganizerID: organizerID, KeyID: "key_secret_" + organizerID, KeyType: identity.Secret, Scopes: scopes,
	})}
}

// Publishable returns the headers of a request made with a publishable key of the organizer.
func (e *Env) Publishable(t testing.TB, organizerID string) map[string]string {
	t.Helper()
	return map[string]string{identity.Header: e.Token(t, identity.Principal{
		OrganizerID: organizerID, KeyID: "key_pub_" + organizerID, KeyType: identity.Publishable, Origin: "https://shop.example",
	})}
}

// SecretTest returns the headers of a request made with a test-mode secret key of the
// organizer.
func (e *Env) SecretTest(t testing.TB, organizerID string, scopes ...string) map[string]string {
	t.Helper()
	return map[string]string{identity.Header: e.Token(t, identity.Principal{
		OrganizerID: organizerID, KeyID: "key_secret_test_" + organizerID, KeyType: identity.Secret, Scopes: scopes, Test: true,
	})}
}

// PublishableTest returns the headers of a request made with a test-mode publishable key of
// the organizer.
func (e *Env) PublishableTest(t testing.TB, organizerID string) map[string]string {
	t.Helper()
	return map[string]string{identity.Header: e.Token(t, identity.Principal{
		OrganizerID: organizerID, KeyID: "key_pub_test_" + organizerID, KeyType: identity.Publishable, Origin: "https://shop.example", Test: true,
	})}
}

// Import imports an event file (YAML) for the organizer through the admin API and fails the
// test unless it answers 200 or 201.
func (e *Env) Import(t testing.TB, organizerID, file string) testkit.Response {
	t.Helper()
	r := e.ImportRaw(t, organizerID, ExternalIDOf(t, file), "application/yaml", file)
	if r.Status != http.StatusOK && r.Status != http.StatusCreated {
		t.Fatalf("import: %d %s", r.Status, r.Raw)
	}
	return r
}

// ImportRaw sends an import request as is.
func (e *Env) ImportRaw(t testing.TB, organizerID, externalID, contentType, body string) testkit.Response {
	t.Helper()
	return e.Do(t, http.MethodPut, "/admin/organizers/"+organizerID+"/events/"+externalID, body, map[string]string{
		"Authorization": "Bearer " + OperatorToken, "Content-Type": contentType,
	})
}

// Admin calls the admin API with the operator token.
func (e *Env) Admin(t testing.TB, method, path string) testkit.Response {
	t.Helper()
	return e.Do(t, method, path, nil, map[string]string{"Authorization": "Bearer " + OperatorToken})
}

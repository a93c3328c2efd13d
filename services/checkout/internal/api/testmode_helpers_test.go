package api_test

import (
	"net/http"
	"testing"

	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/checkout/internal/checkouttest"
)

// testKeyID is the test-mode publishable key of the fixture organizer.
const testKeyID = "key_pub_test_1"

// testSession posts a session request as the gateway forwards it for a test-mode publishable
// key of keyID.
func testSession(t testing.TB, env *checkouttest.Env, body map[string]any, keyID string) testkit.Response {
	t.Helper()
	tok := env.Token(t, identity.Principal{OrganizerID: checkouttest.OrgID, KeyID: keyID, KeyType: identity.Publishable, Origin: checkouttest.Site, Test: true})
	return env.Do(t, http.MethodPost, "/external/v1/browser/checkout/registration/session", body, map[string]string{identity.Header: tok})
}

// openedTest creates a test-mode session and returns its checkout's ids.
func openedTest(t *testing.T, env *checkouttest.Env) checkouttest.StripeSession {
	t.Helper()
	r := testSession(t, env, checkouttest.Purchase(), testKeyID)
	if r.Status != http.StatusCreated || r.Body["livemode"] != false {
		t.Fatalf("test session: %d %s", r.Status, r.Raw)
	}
	orderID := r.Body["orderId"].(string)
	return checkouttest.StripeSession{
		CheckoutID: checkoutOfOrder(t, env, orderID), SessionID: r.Body["sessionId"].(string), OrderID: orderID,
		EventID: checkouttest.EventID, OrganizerID: checkouttest.OrgID, PaymentIntent: "pi_test_1", Currency: "EUR", Amount: 5875,
	}
}

// outcome posts a test outcome of sessionID for a secret key of org in the given mode.
func outcome(t testing.TB, env *checkouttest.Env, org, sessionID, what string, test bool) testkit.Response {
	t.Helper()
	tok := env.Token(t, identity.Principal{OrganizerID: org, KeyID: "key_sec_1", KeyType: identity.Secret, Scopes: []string{"registrations:write"}, Test: test})
	return env.Do(t, http.MethodPost, "/external/v1/organizer/test/checkout-sessions/"+sessionID+"/"+what, nil, map[string]string{identity.Header: tok})
}

// wipe deletes org's test data as registration calls it, with issuer's token for a principal
// of org in the given mode.
func wipe(t testing.TB, env *checkouttest.Env, issuer, org string, test bool) testkit.Response {
	t.Helper()
	tok := env.Issuers.Token(t, issuer, identity.Checkout, identity.Principal{OrganizerID: org, KeyID: "key_sec_1", KeyType: identity.Secret, Test: test})
	return env.Do(t, http.MethodDelete, "/internal/organizers/"+org+"/test-data", nil, map[string]string{identity.Header: tok})
}

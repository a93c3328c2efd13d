package registration_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/libs/identity/identitytest"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/auth/internal/adapters/registration"
	"github.com/podiumhq/podium/services/auth/internal/app"
)

// TestAWipeAnswerMustBeTestData: an answer not marked livemode false is no wipe of test data,
// and the token asks for test mode.
func TestAWipeAnswerMustBeTestData(t *testing.T) {
	issuers := identitytest.New(t)
	verifier := issuers.Verifier(identity.Registration)
	answer := `{"livemode":true,"deleted":{"orders":1}}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if v, err := verifier.Verify(r.Header.Get(identity.Header)); err != nil || !v.Test || v.OrganizerID != "org_1" || r.URL.Path != "/internal/organizers/org_1/test-data" {
			t.Errorf("call %s %s: %+v %v", r.Method, r.URL.Path, v, err)
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(answer))
	}))
	t.Cleanup(srv.Close)
	c := registration.New(srv.URL, 5*time.Second, issuers.Signer(identity.Auth), testkit.Logger(t))
	as := app.RegistrationCaller{OrganizerID: "org_1", MemberID: "mbr_1"}

	if _, err := c.DeleteTestData(t.Context(), as); !errors.Is(err, app.ErrRegistrationUnavailable) {
		t.Fatalf("livemode true: %v", err)
	}
	answer = `{"livemode":false,"deleted":{"orders":1,"registrations":2,"tickets":3,"mail":4,"checkoutSessions":5,"webhookEndpoints":6,"webhookDeliveries":7}}`
	d, err := c.DeleteTestData(t.Context(), as)
	if err != nil || d.Orders != 1 || d.Registrations != 2 || d.Tickets != 3 || d.Mail != 4 || d.CheckoutSessions != 5 || d.WebhookEndpoints != 6 || d.WebhookDeliveries != 7 {
		t.Fatalf("deleted %+v %v", d, err)
	}
}

package webhooks_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/libs/identity/identitytest"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/auth/internal/adapters/webhooks"
	"github.com/podiumhq/podium/services/auth/internal/app"
	"github.com/podiumhq/podium/services/auth/internal/authtest"
	"github.com/podiumhq/podium/services/auth/internal/domain"
)

// TestTheClientSendsAndReadsWhatTheContractSays: every body the client sends and every member
// it reads is in the webhooks service's contract with a type it can hold.
func TestTheClientSendsAndReadsWhatTheContractSays(t *testing.T) {
	api := authtest.WebhooksAPI
	api.Operation(t, "createWebhookEndpoint").CheckSends(t, webhooks.EndpointRequest{})
	api.Operation(t, "updateWebhookEndpoint").CheckSends(t, webhooks.EnabledRequest{})
	api.Operation(t, "recoverWebhookDeliveries").CheckSends(t, webhooks.RecoverRequest{})
	api.Operation(t, "listWebhookEndpoints").CheckReads(t, http.StatusOK, webhooks.EndpointList{})
	api.Operation(t, "createWebhookEndpoint").CheckReads(t, http.StatusCreated, webhooks.CreatedDoc{})
	for _, op := range []string{"getWebhookEndpoint", "updateWebhookEndpoint", "deleteWebhookEndpoint"} {
		api.Operation(t, op).CheckReads(t, http.StatusOK, webhooks.EndpointDoc{})
	}
	api.Operation(t, "rotateWebhookEndpointSecret").CheckReads(t, http.StatusOK, webhooks.RotatedDoc{})
	api.Operation(t, "testWebhookEndpoint").CheckReads(t, http.StatusAccepted, struct {
		Delivery webhooks.DeliveryDoc `json:"delivery"`
	}{})
	api.Operation(t, "listWebhookDeliveries").CheckReads(t, http.StatusOK, webhooks.DeliveryList{})
	api.Operation(t, "getWebhookDelivery").CheckReads(t, http.StatusOK, webhooks.DeliveryDetailDoc{})
	api.Operation(t, "retryWebhookDelivery").CheckReads(t, http.StatusAccepted, webhooks.DeliveryDoc{})
	api.Operation(t, "recoverWebhookDeliveries").CheckReads(t, http.StatusAccepted, struct {
		Recovered int `json:"recovered"`
	}{})
}

// TestTheClientKeepsTheServicesRefusalsAndCallsAnythingElseUnavailable: a refusal of the
// request keeps its category and problems; a 5xx, a 401, an unreadable answer and an answer
// later than the timeout are app.ErrWebhooksUnavailable.
func TestTheClientKeepsTheServicesRefusalsAndCallsAnythingElseUnavailable(t *testing.T) {
	issuers := identitytest.New(t)
	as := app.WebhooksCaller{OrganizerID: "org_1", MemberID: "mbr_1"}
	cases := map[string]struct {
		status int
		body   string
		kind   fault.Kind
	}{
		"a refused URL":      {http.StatusBadRequest, `{"statusCode":400,"message":["url must use https"]}`, fault.Invalid},
		"too many":           {http.StatusConflict, `{"statusCode":409,"message":"at most 16 endpoints"}`, fault.Conflict},
		"another organizer":  {http.StatusNotFound, `{"statusCode":404,"message":"webhook endpoint not found"}`, fault.NotFound},
		"a failure":          {http.StatusServiceUnavailable, `{"statusCode":503,"message":"database down"}`, fault.Unavailable},
		"a refused token":    {http.StatusUnauthorized, `{"statusCode":401,"message":"invalid token"}`, fault.Unavailable},
		"no route":           {http.StatusNotFound, `not json`, fault.Unavailable},
		"an unreadable body": {http.StatusOK, `{"id":`, fault.Unavailable},
	}
	for name, c := range cases {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			v, err := issuers.Verifier(identity.Webhooks).Verify(r.Header.Get(identity.Header))
			if err != nil || v.Issuer != identity.Auth || v.OrganizerID != "org_1" || v.KeyID != "console:mbr_1" || !v.HasScope(domain.ScopeWebhooksWrite) {
				t.Errorf("%s: token %+v, %v", name, v, err)
			}
			w.WriteHeader(c.status)
			_, _ = w.Write([]byte(c.body))
		}))
		client := webhooks.New(srv.URL, time.Second, issuers.Signer(identity.Auth), testkit.Logger(t))
		_, err := client.Endpoint(t.Context(), as, "we_1")
		srv.Close()
		if fault.KindOf(err) != c.kind || (c.kind == fault.Unavailable) != errors.Is(err, app.ErrWebhooksUnavailable) {
			t.Errorf("%s: %v (%v), want %v", name, err, fault.KindOf(err), c.kind)
		}
	}

	release := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer slow.Close()
	defer close(release)
	client := webhooks.New(slow.URL, 50*time.Millisecond, issuers.Signer(identity.Auth), testkit.Logger(t))
	if _, err := client.Endpoint(t.Context(), as, "we_1"); !errors.Is(err, app.ErrWebhooksUnavailable) {
		t.Fatalf("a slow service: %v", err)
	}
}

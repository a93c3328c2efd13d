package api_test

import (
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/podiumhq/podium/libs/apispec"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/catalog/internal/catalogtest"
)

const (
	orgA = "org_alpha"
	orgB = "org_beta"
)

var contract = sync.OnceValues(apispec.NewValidator)

// checkContract validates an external API answer against the OpenAPI document.
func checkContract(t *testing.T, operationID string, r testkit.Response) {
	t.Helper()
	v, err := contract()
	if err != nil {
		t.Fatal(err)
	}
	if err := v.ValidateResponse(operationID, r.Status, r.Raw); err != nil {
		t.Fatalf("%s %d does not match the contract: %v\n%s", operationID, r.Status, err, r.Raw)
	}
}

// wantError checks the standard error body: status, message (when not nil) and a request id
// matching the X-Request-Id header.
func wantError(t *testing.T, r testkit.Response, status int, message any) {
	t.Helper()
	if r.Status != status {
		t.Fatalf("status %d, want %d: %s", r.Status, status, r.Raw)
	}
	if int(r.Body["statusCode"].(float64)) != status || r.Body["error"] != http.StatusText(status) {
		t.Fatalf("body is not the standard error body: %s", r.Raw)
	}
	if id := r.Body["requestId"]; id == nil || id != r.Header.Get("X-Request-Id") {
		t.Fatalf("requestId %v does not match the header %q", id, r.Header.Get("X-Request-Id"))
	}
	if message != nil && fmt.Sprint(r.Body["message"]) != fmt.Sprint(message) {
		t.Fatalf("message %v\nwant    %v", r.Body["message"], message)
	}
}

// external names the external API's catalog operations.
type external struct {
	id, method, path string
}

func organizerOps(eventID string) []external {
	return []external{
		{"organizerSearchEvents", http.MethodPost, "/external/v1/organizer/events/search"},
		{"organizerGetEvent", http.MethodGet, "/external/v1/organizer/events/" + eventID},
		{"organizerGetPricingCards", http.MethodGet, "/external/v1/organizer/events/" + eventID + "/pricing-cards"},
	}
}

func browserOps(eventID string) []external {
	return []external{
		{"browserSearchEvents", http.MethodPost, "/external/v1/browser/events/search"},
		{"browserGetEvent", http.MethodGet, "/external/v1/browser/events/" + eventID},
		{"browserGetPricingCards", http.MethodGet, "/external/v1/browser/events/" + eventID + "/pricing-cards"},
	}
}

// ids returns the "id" (or "categoryId") of each object of a JSON array.
func ids(list any) []string {
	var out []string
	for _, v := range list.([]any) {
		m := v.(map[string]any)
		if id, ok := m["id"].(string); ok {
			out = append(out, id)
		} else {
			out = append(out, m["categoryId"].(string))
		}
	}
	return out
}

// allScopes returns the headers of a secret key of org with both catalog scopes.
func allScopes(t *testing.T, env *catalogtest.Env, org string) map[string]string {
	t.Helper()
	return env.Secret(t, org, "events:read", "pricing:read")
}

package e2e

import (
	"testing"
)

// TestOwnersRefuseRequestsWithoutTheInternalToken calls each owner directly, bypassing the
// gateway, with and without a forged token.
func TestOwnersRefuseRequestsWithoutTheInternalToken(t *testing.T) {
	forged := "eyJhbGciOiJFZERTQSIsInR5cCI6IkpXVCJ9.eyJrZXkiOiJrIiwidHlwIjoic2VjcmV0In0.c2lnbmF0dXJl"
	cases := []struct{ service, method, path string }{
		{"catalog", "POST", "/external/v1/organizer/events/search"},
		{"catalog", "GET", "/external/v1/browser/events/evt_1"},
		{"registration", "POST", "/external/v1/organizer/registrations/search"},
		{"checkout", "POST", "/external/v1/browser/checkout/registration/session"},
		{"checkout", "POST", "/webhooks/stripe"},
		{"auth", "POST", "/internal/keys/verify"},
	}
	for _, tc := range cases {
		t.Run(tc.service+tc.path, func(t *testing.T) {
			url := sys.URLs[tc.service] + tc.path
			wantError(t, do(t, req{tc.method, url, secret(demo.SecretAll.Key), "{}"}), 401, "reached through the gateway only")
			wantError(t, do(t, req{tc.method, url, map[string]string{"X-Podium-Identity": forged}, "{}"}), 401, "invalid or expired")
		})
	}
}

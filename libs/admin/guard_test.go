package admin_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/podiumhq/podium/libs/httpserver"
)

// TestRequireOperator: the admin routes answer only the operator token, as a bearer token;
// every refusal is a 401 in the standard error body with the service's realm.
func TestRequireOperator(t *testing.T) {
	url := serve(t)
	for name, c := range map[string]struct{ header, want string }{
		"none":         {"", "the admin API requires Authorization: Bearer <operator token>"},
		"basic":        {"Basic " + token, "the Authorization header must be Bearer <operator token>"},
		"no scheme":    {token, "the Authorization header must be Bearer <operator token>"},
		"wrong":        {"Bearer " + strings.Repeat("x", len(token)), "the operator token is invalid"},
		"prefix":       {"Bearer " + token[:10], "the operator token is invalid"},
		"longer":       {"Bearer " + token + "x", "the operator token is invalid"},
		"empty bearer": {"Bearer ", "the Authorization header must be Bearer <operator token>"},
		"any case":     {"bearer  " + token + " ", ""},
		"right":        {"Bearer " + token, ""},
	} {
		t.Run(name, func(t *testing.T) {
			req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, url+"/admin/widgets", nil)
			if err != nil {
				t.Fatal(err)
			}
			if c.header != "" {
				req.Header.Set("Authorization", c.header)
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			var body httpserver.Body
			if err := json.NewDecoder(res.Body).Decode(&body); err != nil {
				t.Fatal(err)
			}
			if c.want == "" {
				if res.StatusCode != http.StatusOK {
					t.Fatalf("status %d %+v, want 200", res.StatusCode, body)
				}
				return
			}
			if res.StatusCode != http.StatusUnauthorized || body.StatusCode != http.StatusUnauthorized || body.Message != c.want ||
				res.Header.Get("WWW-Authenticate") != `Bearer realm="podium-shop-admin"` {
				t.Fatalf("status %d %+v %q, want 401 %q with the shop realm", res.StatusCode, body, res.Header.Get("WWW-Authenticate"), c.want)
			}
		})
	}
}

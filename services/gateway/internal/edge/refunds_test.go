package edge

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/podiumhq/podium/libs/apikey"
	"github.com/podiumhq/podium/libs/apispec"
	"github.com/podiumhq/podium/services/gateway/internal/keys"
)

// refundCalls are requests to every refund operation.
var refundCalls = []call{
	{method: "POST", path: "/organizer/refunds", body: `{"orderId":"ord_1","amount":1500,"reason":"goodwill"}`},
	{method: "GET", path: "/organizer/refunds?orderId=ord_1&limit=10"},
	{method: "GET", path: "/organizer/refunds/rfd_1"},
}

// TestRefundsGoToCheckoutWithTheirIdempotencyKey: every refund operation needs refunds:write and
// reaches checkout with its path and query as sent; the create passes the client's
// Idempotency-Key on, the reads none.
func TestRefundsGoToCheckoutWithTheirIdempotencyKey(t *testing.T) {
	var ids []string
	for _, op := range apispec.Operations() {
		if strings.HasPrefix(op.Path, "/organizer/refunds") {
			ids = append(ids, op.ID)
			if op.Scope != "refunds:write" || owners[op.ID] != Checkout {
				t.Errorf("%s: scope %q, owner %q; want refunds:write and %s", op.ID, op.Scope, owners[op.ID], Checkout)
			}
		}
	}
	if len(ids) != len(refundCalls) {
		t.Fatalf("the document has %d refund operations %v, the test calls %d", len(ids), ids, len(refundCalls))
	}
	h := newHarness(t, Limits{})
	for i, c := range refundCalls {
		c.addr, c.headers = newAddr(), map[string]string{"Authorization": "Bearer " + h.secret, "Idempotency-Key": "refund-key-1"}
		wantStatus(t, h.do(t, c), http.StatusOK, "")
		r := h.owner.requests()[i]
		path, query, _ := strings.Cut(c.path, "?")
		wantKey := ""
		if c.method == "POST" {
			wantKey = "refund-key-1"
		}
		if r.path != BasePath+path || r.query != query || r.audience != Checkout || r.idempotencyKey != wantKey {
			t.Errorf("%s %s reached %s as %s?%s with Idempotency-Key %q", c.method, c.path, r.audience, r.path, r.query, r.idempotencyKey)
		}
	}
}

// TestRefundsRefuseAKeyWithoutTheirScope: a secret key of every other scope is refused with 403
// scope_missing; money moves only with a key made for it.
func TestRefundsRefuseAKeyWithoutTheirScope(t *testing.T) {
	h := newHarness(t, Limits{})
	narrow, err := apikey.Generate(apikey.Secret, apikey.Live)
	if err != nil {
		t.Fatal(err)
	}
	scopes := slices.DeleteFunc(allScopes(), func(s string) bool { return s == "refunds:write" })
	h.auth.mu.Lock()
	h.auth.keys[apikey.Hash(narrow)] = keys.Key{ID: "key_" + randomHex(6), OrganizerID: "org_1", Type: apikey.Secret, Scopes: scopes}
	h.auth.mu.Unlock()
	for _, c := range refundCalls {
		c.addr, c.headers = newAddr(), map[string]string{"Authorization": "Bearer " + narrow, "Idempotency-Key": "refund-key-2"}
		wantStatus(t, h.do(t, c), http.StatusForbidden, "lacks the refunds:write scope")
	}
	if got := h.owner.requests(); len(got) != 0 {
		t.Fatalf("refused requests reached the owner: %+v", got)
	}
}

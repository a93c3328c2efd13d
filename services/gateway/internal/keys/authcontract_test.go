package keys

import (
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/apikey"
	"github.com/podiumhq/podium/libs/contracttest"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/libs/identity/identitytest"
	authcontracts "github.com/podiumhq/podium/services/auth/contracts"
)

// TestAuthClientKeepsAuthsContract: what the gateway sends auth and reads of its answers is
// what auth's contract says.
func TestAuthClientKeepsAuthsContract(t *testing.T) {
	api := contracttest.Load(t, authcontracts.Internal)
	verify, origins := api.Operation(t, "verifyKey"), api.Operation(t, "checkOrigin")
	verify.CheckSends(t, verifyRequest{})
	verify.CheckReads(t, http.StatusOK, Key{})
	origins.CheckSends(t, originRequest{})
	origins.CheckReads(t, http.StatusOK, originAnswer{})
}

// TestAuthClientReadsAuthsExamples looks a key and an origin up against auth's example
// answers, checking each request against the contract.
func TestAuthClientReadsAuthsExamples(t *testing.T) {
	api := contracttest.Load(t, authcontracts.Internal)
	issuers := identitytest.New(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		op, ok := api.Match(r.Method, r.URL.Path)
		if !ok {
			t.Errorf("%s %s is not in auth's contract", r.Method, r.URL.Path)
			return
		}
		body, err := io.ReadAll(r.Body)
		if err != nil {
			t.Error(err)
		}
		if err := op.CheckRequest(body); err != nil {
			t.Error(err)
		}
		_, _ = w.Write(op.Response(t, http.StatusOK).Example)
	}))
	t.Cleanup(srv.Close)
	c := NewAuthClient(srv.URL, issuers.Signer(identity.Gateway), 5*time.Second)
	k, err := c.Lookup(t.Context(), apikey.Hash("pdm_pk_live_x"))
	if err != nil {
		t.Fatal(err)
	}
	if k.ID != "key_4Qm8ZrT2vXc9LpWn3Hs7" || k.OrganizerID != "org_3Fg5Hj7Kl9Mn1Pq3Rs5T" || k.Type != apikey.Publishable ||
		!slices.Equal(k.AllowedOrigins, []string{"https://crossfit-open.example.com"}) || k.RevokedAt != nil ||
		!k.ExpiresAt.Equal(time.Date(2027, 12, 31, 23, 0, 0, 0, time.UTC)) {
		t.Fatalf("key %+v", k)
	}
	if ok, err := c.OriginAllowed(t.Context(), "https://crossfit-open.example.com"); !ok || err != nil {
		t.Fatalf("origin: %v %v", ok, err)
	}
}

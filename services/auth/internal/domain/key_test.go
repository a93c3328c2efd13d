package domain_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/apikey"
	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/safetext"
	"github.com/podiumhq/podium/services/auth/internal/domain"
)

var now = time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)

// problemsOf returns the problems of an invalid-input failure, failing the test for other errors.
func problemsOf(t *testing.T, err error) []string {
	t.Helper()
	f, ok := fault.Of(err)
	if !ok || f.Kind != fault.Invalid {
		t.Fatalf("error %v is not an invalid-input failure", err)
	}
	return f.Problems
}

func TestNewKeyValidation(t *testing.T) {
	secret := func(r domain.KeyRequest) domain.KeyRequest {
		r.Type = "secret"
		if r.Name == "" {
			r.Name = "ci"
		}
		return r
	}
	public := func(r domain.KeyRequest) domain.KeyRequest { r.Type, r.Name = "publishable", "site"; return r }
	cases := []struct {
		name string
		req  domain.KeyRequest
		want []string
	}{
		{"secret without scopes", secret(domain.KeyRequest{}),
			[]string{"scopes must list at least one scope for a secret key"}},
		{"unknown scope names its index", secret(domain.KeyRequest{Scopes: []string{"events:read", "events:write"}}),
			[]string{"scopes[1] must be one of events:read, pricing:read, registrations:read, registrations:write, webhooks:write, checkins:write, refunds:write"}},
		{"scopes are case-sensitive", secret(domain.KeyRequest{Scopes: []string{"Events:Read"}}),
			[]string{"scopes[0] must be one of events:read, pricing:read, registrations:read, registrations:write, webhooks:write, checkins:write, refunds:write"}},
		{"secret with origins", secret(domain.KeyRequest{Scopes: []string{"events:read"}, AllowedOrigins: []string{"https://a.example"}}),
			[]string{"allowedOrigins is only for publishable keys; secret keys must not be used from browsers"}},
		{"publishable without origins", public(domain.KeyRequest{}),
			[]string{"allowedOrigins must list at least one origin for a publishable key"}},
		{"publishable with scopes", public(domain.KeyRequest{AllowedOrigins: []string{"https://a.example"}, Scopes: []string{"events:read"}}),
			[]string{"scopes is only for secret keys; publishable keys are limited by allowedOrigins"}},
		{"bad origins name their index", public(domain.KeyRequest{AllowedOrigins: []string{"https://ok.example", "http://shop.example", "https://a.example/x"}}),
			[]string{
				"allowedOrigins[1] must use https: plain http is allowed only for localhost, 127.0.0.1 and [::1] (local development)",
				"allowedOrigins[2] must not have a path (not even a trailing /)",
			}},
		{"expiry in the past", secret(domain.KeyRequest{Scopes: []string{"events:read"}, ExpiresAt: "2026-05-01T11:59:59Z"}),
			[]string{"expiresAt must be in the future"}},
		{"expiry now", secret(domain.KeyRequest{Scopes: []string{"events:read"}, ExpiresAt: "2026-05-01T12:00:00Z"}),
			[]string{"expiresAt must be in the future"}},
		{"expiry not RFC 3339", secret(domain.KeyRequest{Scopes: []string{"events:read"}, ExpiresAt: "2027-01-01"}),
			[]string{"expiresAt must be an RFC 3339 timestamp such as 2027-01-01T00:00:00Z"}},
		{"missing type and name", domain.KeyRequest{Name: "  "},
			[]string{"name is required", "type is required: secret or publishable"}},
		{"unknown type", domain.KeyRequest{Type: "admin", Name: "x"},
			[]string{"type must be one of secret, publishable"}},
		{"long name", domain.KeyRequest{Type: "secret", Name: strings.Repeat("n", 101), Scopes: []string{"events:read"}},
			[]string{"name must be at most 100 characters"}},
		{"name forging an audit line", secret(domain.KeyRequest{Name: "ci\n2026-11-28T10:00:00Z  operator  key.revoked", Scopes: []string{"events:read"}}),
			[]string{"name " + safetext.Rule}},
		{"name with an ANSI escape", secret(domain.KeyRequest{Name: "ci\x1b[2K", Scopes: []string{"events:read"}}),
			[]string{"name " + safetext.Rule}},
		{"name with a direction override", secret(domain.KeyRequest{Name: "ci\u202egnp.exe", Scopes: []string{"events:read"}}),
			[]string{"name " + safetext.Rule}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, full, err := domain.NewKey("org_1", c.req, now)
			if full != "" {
				t.Fatal("a key was minted for an invalid request")
			}
			if got := problemsOf(t, err); !slices.Equal(got, c.want) {
				t.Fatalf("problems = %q\nwant       %q", got, c.want)
			}
		})
	}
}

func TestNewSecretKey(t *testing.T) {
	k, full, err := domain.NewKey("org_1", domain.KeyRequest{
		Type: "secret", Name: " backend ", Scopes: []string{"registrations:write", "events:read", "events:read"},
		ExpiresAt: "2027-01-01T02:00:00+02:00",
	}, now)
	if err != nil {
		t.Fatal(err)
	}
	if typ, _, err := apikey.Parse(full); err != nil || typ != apikey.Secret {
		t.Fatalf("key %q parses as %q, %v", full, typ, err)
	}
	if k.Hash != apikey.Hash(full) || k.Last4 != apikey.Last4(full) || k.Prefix() != apikey.SecretPrefix {
		t.Fatalf("stored form %+v does not match the key", k)
	}
	if !regexp.MustCompile(`^key_[0-9A-Za-z]{20}$`).MatchString(k.ID) || k.OrganizerID != "org_1" || k.Name != "backend" {
		t.Fatalf("key %+v", k)
	}
	if !slices.Equal(k.Scopes, []string{"registrations:write", "events:read"}) || len(k.AllowedOrigins) != 0 {
		t.Fatalf("scopes %q origins %q", k.Scopes, k.AllowedOrigins)
	}
	if want := time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC); k.ExpiresAt == nil || !k.ExpiresAt.Equal(want) || k.ExpiresAt.Location() != time.UTC {
		t.Fatalf("expiresAt %v, want %v in UTC", k.ExpiresAt, want)
	}
}

func TestNewPublishableKeyNormalisesOrigins(t *testing.T) {
	k, full, err := domain.NewKey("org_1", domain.KeyRequest{
		Type: "publishable", Name: "site",
		AllowedOrigins: []string{"https://Shop.Example.com:443", "https://shop.example.com", "http://localhost:3000"},
	}, now)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(full, apikey.PublishablePrefix) || k.Prefix() != apikey.PublishablePrefix {
		t.Fatalf("key %q prefix %q", full, k.Prefix())
	}
	if want := []string{"https://shop.example.com", "http://localhost:3000"}; !slices.Equal(k.AllowedOrigins, want) {
		t.Fatalf("origins %q, want %q", k.AllowedOrigins, want)
	}
}

func TestRevokeKeepsTheFirstTime(t *testing.T) {
	var k domain.Key
	if !k.Revoke(now) || !k.RevokedAt.Equal(now) {
		t.Fatalf("first revoke: %v", k.RevokedAt)
	}
	if k.Revoke(now.Add(time.Hour)) || !k.RevokedAt.Equal(now) {
		t.Fatalf("second revoke changed revokedAt to %v", k.RevokedAt)
	}
}

func TestActive(t *testing.T) {
	exp := now.Add(time.Hour)
	k := domain.Key{ExpiresAt: &exp}
	if !k.Active(now) || k.Active(exp) || !k.Expired(exp.Add(time.Second)) {
		t.Fatal("expiry is not applied at its instant")
	}
	k.Revoke(now)
	if k.Active(now) {
		t.Fatal("a revoked key is active")
	}
}

func TestNewOrganizer(t *testing.T) {
	o, err := domain.NewOrganizer("  Trail Club ", now)
	if err != nil || o.Name != "Trail Club" || !regexp.MustCompile(`^org_[0-9A-Za-z]{20}$`).MatchString(o.ID) {
		t.Fatalf("organizer %+v, %v", o, err)
	}
	_, err = domain.NewOrganizer(" ", now)
	if got := problemsOf(t, err); !slices.Equal(got, []string{"name is required"}) {
		t.Fatalf("problems %q", got)
	}
	_, err = domain.NewOrganizer(strings.Repeat("é", 201), now)
	if got := problemsOf(t, err); !slices.Equal(got, []string{"name must be at most 200 characters"}) {
		t.Fatalf("problems %q", got)
	}
	_, err = domain.NewOrganizer("Trail\tClub\u2028", now)
	if got := problemsOf(t, err); !slices.Equal(got, []string{"name " + safetext.Rule}) {
		t.Fatalf("problems %q", got)
	}
}

func TestValidKeyHash(t *testing.T) {
	if !domain.ValidKeyHash(apikey.Hash("x")) {
		t.Fatal("a real hash is refused")
	}
	for _, s := range []string{"", strings.Repeat("A", 64), strings.Repeat("g", 64), strings.Repeat("a", 63)} {
		if domain.ValidKeyHash(s) {
			t.Fatalf("%q accepted", s)
		}
	}
}

func TestScopesAreListedInTheirDocumentedOrder(t *testing.T) {
	want := []string{"events:read", "pricing:read", "registrations:read", "registrations:write", "webhooks:write", "checkins:write", "refunds:write"}
	if !slices.Equal(domain.AllScopes, want) {
		t.Fatalf("AllScopes = %v, want %v", domain.AllScopes, want)
	}
	r := domain.KeyRequest{Type: "secret", Name: "hooks", Scopes: []string{"webhooks:write"}}
	if _, _, err := domain.NewKey("org_1", r, now); err != nil {
		t.Fatalf("a key with webhooks:write: %v", err)
	}
}

// TestNewKeyInTestMode mints a key of the requested mode, live when none is named.
func TestNewKeyInTestMode(t *testing.T) {
	for mode, want := range map[string]apikey.Mode{"": apikey.Live, "live": apikey.Live, "test": apikey.Test} {
		k, full, err := domain.NewKey("org_1", domain.KeyRequest{Type: "secret", Mode: mode, Name: "ci", Scopes: []string{"events:read"}}, now)
		if err != nil {
			t.Fatal(err)
		}
		typ, got, err := apikey.Parse(full)
		if err != nil || typ != apikey.Secret || got != want || k.Mode != want || k.Prefix() != apikey.Prefix(apikey.Secret, want) || !strings.HasPrefix(full, k.Prefix()) {
			t.Fatalf("mode %q: key %+v %q (%s %v)", mode, k, full, got, err)
		}
		k.Revoke(now)
		if live := want == apikey.Live; k.CreatedEvent().Livemode != live || k.RevokedEvent().Livemode != live {
			t.Fatalf("mode %q: events %+v %+v", mode, k.CreatedEvent(), k.RevokedEvent())
		}
	}
	_, _, err := domain.NewKey("org_1", domain.KeyRequest{Type: "secret", Mode: "Test", Name: "ci", Scopes: []string{"events:read"}}, now)
	if p := problemsOf(t, err); !slices.Equal(p, []string{"mode must be one of live, test"}) {
		t.Fatalf("problems %q", p)
	}
}

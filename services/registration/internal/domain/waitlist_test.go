package domain_test

import (
	"strings"
	"testing"

	"github.com/podiumhq/podium/services/registration/internal/domain"
)

func TestCheckJoin(t *testing.T) {
	pairs := domain.Category{ID: "cat_pairs", TeamSize: domain.TeamSize{Min: 2, Max: 2}}
	const origin = "https://shop.example"
	for _, tc := range []struct {
		name    string
		in      domain.JoinInput
		origin  string
		problem string
	}{
		{"a pair on the site", domain.JoinInput{TeamSize: 2, OfferURL: origin + "/waitlist"}, origin, ""},
		{"the origin in another case", domain.JoinInput{TeamSize: 2, OfferURL: "https://SHOP.example/w"}, origin, ""},
		{"no origin known (not a browser)", domain.JoinInput{TeamSize: 2, OfferURL: "https://any.example/w"}, "", ""},
		{"a team too small", domain.JoinInput{TeamSize: 1, OfferURL: origin + "/w"}, origin, "teamSize must be between 2 and 2"},
		{"a team too large", domain.JoinInput{TeamSize: 3, OfferURL: origin + "/w"}, origin, "teamSize"},
		{"an offer page elsewhere", domain.JoinInput{TeamSize: 2, OfferURL: "https://phish.example/w"}, origin, "offerUrl"},
		{"another port", domain.JoinInput{TeamSize: 2, OfferURL: "https://shop.example:8443/w"}, origin, "offerUrl"},
		{"a relative page", domain.JoinInput{TeamSize: 2, OfferURL: "/waitlist"}, origin, "offerUrl"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := domain.CheckJoin(pairs, tc.in, tc.origin)
			if tc.problem == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.problem) {
				t.Fatalf("got %v, want a problem with %q", err, tc.problem)
			}
		})
	}
}

func TestOfferLinkAddsTheSecretToThePage(t *testing.T) {
	for page, want := range map[string]string{
		"https://shop.example/waitlist":                "https://shop.example/waitlist?waitlistOffer=wlo_x",
		"https://shop.example/?lang=es#/events/e1/reg": "https://shop.example/?lang=es&waitlistOffer=wlo_x#/events/e1/reg",
	} {
		if got := domain.OfferLink(page, "wlo_x"); got != want {
			t.Errorf("OfferLink(%q) = %q, want %q", page, got, want)
		}
	}
	secret, hash := domain.NewOfferSecret()
	other, _ := domain.NewOfferSecret()
	if !strings.HasPrefix(secret, domain.WaitlistOfferPrefix) || len(secret) < 32 || secret == other || string(domain.OfferHash(secret)) != string(hash) {
		t.Fatalf("secret %q, hash %x", secret, hash)
	}
}

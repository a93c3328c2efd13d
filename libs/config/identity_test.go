package config_test

import (
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/config"
)

func TestIdentityTokenLifetime(t *testing.T) {
	t.Setenv("IDENTITY_TRUSTED_KEYS", "gateway:key")
	t.Setenv("IDENTITY_PRIVATE_KEY", "seed")
	signing, err := config.Load[config.SigningIdentity]()
	if err != nil || signing.IdentityTokenTTL != time.Minute || signing.IdentityTrustedKeys != "gateway:key" || signing.IdentityPrivateKey != "seed" {
		t.Fatalf("Load: %+v, %v", signing, err)
	}
	for ttl, want := range map[time.Duration]string{0: "IDENTITY_TOKEN_TTL must be positive", time.Second: ""} {
		if err := (config.Identity{IdentityTokenTTL: ttl}).Validate(); (err == nil) != (want == "") || (err != nil && err.Error() != want) {
			t.Errorf("Identity with a %s lifetime: %v, want %q", ttl, err, want)
		}
	}
	for ttl, want := range map[time.Duration]string{time.Second: "IDENTITY_TOKEN_TTL must be at least 10s", 10 * time.Second: ""} {
		s := config.SigningIdentity{Identity: config.Identity{IdentityTokenTTL: ttl}}
		if err := s.Validate(); (err == nil) != (want == "") || (err != nil && err.Error() != want) {
			t.Errorf("SigningIdentity with a %s lifetime: %v, want %q", ttl, err, want)
		}
	}
}

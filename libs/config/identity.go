package config

import (
	"errors"
	"time"
)

// minSignedTokenTTL is the shortest lifetime of the tokens a service signs.
const minSignedTokenTTL = 10 * time.Second

// Identity holds the identity tokens (libs/identity) a service accepts from its callers.
type Identity struct {
	// IdentityTrustedKeys are the Ed25519 public keys of the services whose identity tokens the
	// service accepts, as issuer:base64 entries, comma-separated (several per issuer while
	// rotating); the service checks that they list a key of each of its callers.
	IdentityTrustedKeys string `env:"IDENTITY_TRUSTED_KEYS,notEmpty"`
	// IdentityTokenTTL is the tokens' lifetime: of the callers' tokens, which bounds how long a
	// verified token is remembered, and of the tokens the service signs, if it signs any.
	IdentityTokenTTL time.Duration `env:"IDENTITY_TOKEN_TTL" envDefault:"60s"`
}

// Validate reports problems in the token lifetime.
func (i Identity) Validate() error {
	if i.IdentityTokenTTL <= 0 {
		return errors.New("IDENTITY_TOKEN_TTL must be positive")
	}
	return nil
}

// SigningIdentity is the Identity of a service that also signs its calls to other services.
type SigningIdentity struct {
	Identity
	// IdentityPrivateKey signs the service's calls (base64 Ed25519 seed); its public half is in
	// the called services' IDENTITY_TRUSTED_KEYS as <service>:<key>.
	IdentityPrivateKey string `env:"IDENTITY_PRIVATE_KEY,notEmpty" secret:"true"`
}

// Validate reports problems in the token lifetime, which must leave a signed token time to be
// used.
func (s SigningIdentity) Validate() error {
	if s.IdentityTokenTTL < minSignedTokenTTL {
		return errors.New("IDENTITY_TOKEN_TTL must be at least 10s")
	}
	return nil
}

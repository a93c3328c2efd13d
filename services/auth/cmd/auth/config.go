package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/podiumhq/podium/libs/config"
	"github.com/podiumhq/podium/libs/identity"
)

// minOperatorTokenLen is the shortest operator token accepted.
const minOperatorTokenLen = 32

// Config is the configuration of `auth serve` and `auth migrate`.
type Config struct {
	config.Base
	config.Postgres
	config.Kafka
	// OperatorToken guards the admin API.
	OperatorToken string `env:"AUTH_OPERATOR_TOKEN,notEmpty" secret:"true"`
	// IdentityTrustedKeys are the Ed25519 public keys of the services whose identity tokens auth
	// accepts, as issuer:base64 entries, comma-separated: the gateway's (several while rotating).
	IdentityTrustedKeys string `env:"IDENTITY_TRUSTED_KEYS,notEmpty"`
	// IdentityTokenTTL is the callers' token lifetime, which bounds how long a verified
	// token is remembered.
	IdentityTokenTTL time.Duration `env:"IDENTITY_TOKEN_TTL" envDefault:"60s"`
	// KeyUseFlushInterval is how often the keys' last uses, kept in memory by verification,
	// are written in one batch.
	KeyUseFlushInterval time.Duration `env:"KEY_USE_FLUSH_INTERVAL" envDefault:"5s"`
	// RequestTimeout is each request's deadline; a request that runs out of time answers 503.
	// It matches the gateway's AUTH_TIMEOUT, so a key lookup the gateway stopped waiting for
	// stops holding a database connection too.
	RequestTimeout time.Duration `env:"REQUEST_TIMEOUT" envDefault:"2s"`
}

// Validate reports every problem in the configuration.
func (c Config) Validate() error {
	errs := []error{c.Base.Validate(), c.Postgres.Validate(), c.Kafka.Validate()}
	if len(c.OperatorToken) < minOperatorTokenLen {
		errs = append(errs, fmt.Errorf("AUTH_OPERATOR_TOKEN must be at least %d characters", minOperatorTokenLen))
	}
	if _, err := identity.ParseTrustedKeys(c.IdentityTrustedKeys, identity.Gateway); err != nil {
		errs = append(errs, fmt.Errorf("IDENTITY_TRUSTED_KEYS: %w", err))
	}
	if c.IdentityTokenTTL <= 0 {
		errs = append(errs, errors.New("IDENTITY_TOKEN_TTL must be positive"))
	}
	if c.KeyUseFlushInterval <= 0 {
		errs = append(errs, errors.New("KEY_USE_FLUSH_INTERVAL must be positive"))
	}
	if c.RequestTimeout <= 0 {
		errs = append(errs, errors.New("REQUEST_TIMEOUT must be positive"))
	}
	return errors.Join(errs...)
}

// CLIConfig is the configuration of the operator commands.
type CLIConfig struct {
	// AdminURL is the address of auth's admin API.
	AdminURL string `env:"AUTH_ADMIN_URL" envDefault:"http://127.0.0.1:8081"`
	// OperatorToken is sent as the bearer token.
	OperatorToken string `env:"AUTH_OPERATOR_TOKEN,notEmpty" secret:"true"`
}

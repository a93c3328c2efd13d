package domain

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"time"
)

// SecretOverlap is how long a rotated-out secret keeps signing beside the new one.
const SecretOverlap = 24 * time.Hour

// Sealer encrypts secrets at rest with AES-256-GCM under SECRETS_KEY.
type Sealer struct{ aead cipher.AEAD }

// ParseSecretsKey decodes SECRETS_KEY: the base64 of 32 bytes.
func ParseSecretsKey(s string) ([]byte, error) {
	key, err := base64.StdEncoding.DecodeString(s)
	if err != nil || len(key) != 32 {
		return nil, errors.New("must be the base64 of 32 bytes")
	}
	return key, nil
}

// NewSealer returns a Sealer under key (32 bytes).
func NewSealer(key []byte) (*Sealer, error) {
	block, err := aes.NewCipher(key)
	if err != nil || len(key) != 32 {
		return nil, errors.New("secrets key must be 32 bytes")
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	return &Sealer{aead: aead}, nil
}

// Seal returns the secret of endpoint encrypted: a random nonce followed by the ciphertext,
// bound to the endpoint's id (GCM's additional data), so that a sealed secret copied to
// another endpoint's row does not open there.
func (s *Sealer) Seal(endpoint, secret string) []byte {
	nonce := make([]byte, s.aead.NonceSize(), s.aead.NonceSize()+len(secret)+s.aead.Overhead())
	_, _ = rand.Read(nonce)
	return s.aead.Seal(nonce, nonce, []byte(secret), []byte(endpoint))
}

// Open returns the secret of endpoint sealed in sealed.
func (s *Sealer) Open(endpoint string, sealed []byte) (string, error) {
	n := s.aead.NonceSize()
	if len(sealed) < n {
		return "", errors.New("sealed secret too short")
	}
	plain, err := s.aead.Open(nil, sealed[:n], sealed[n:], []byte(endpoint))
	if err != nil {
		return "", fmt.Errorf("open secret: %w", err)
	}
	return string(plain), nil
}

package delivery

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strconv"
	"strings"
	"time"
)

// The Standard Webhooks headers of every request.
const (
	HeaderID        = "webhook-id"
	HeaderTimestamp = "webhook-timestamp"
	HeaderSignature = "webhook-signature"
)

// secretPrefix starts a secret's text.
const secretPrefix = "whsec_"

// secretSize is the number of random bytes of a secret.
const secretSize = 32

// ErrMalformedSecret is a secret not written as whsec_ and the base64 of 32 bytes.
var ErrMalformedSecret = errors.New("a webhook secret is whsec_ followed by the base64 of 32 bytes")

// Secret is an endpoint's signing key.
type Secret struct{ key []byte }

// NewSecret returns a secret of 32 random bytes.
func NewSecret() Secret {
	key := make([]byte, secretSize)
	_, _ = rand.Read(key) // crypto/rand.Read never fails: it crashes the program instead
	return Secret{key: key}
}

// ParseSecret reads a secret written as String writes it.
func ParseSecret(s string) (Secret, error) {
	encoded, ok := strings.CutPrefix(s, secretPrefix)
	if !ok {
		return Secret{}, ErrMalformedSecret
	}
	key, err := base64.StdEncoding.DecodeString(encoded)
	// Decoding skips line breaks: the key written again must be the text read.
	if err != nil || len(key) != secretSize || base64.StdEncoding.EncodeToString(key) != encoded {
		return Secret{}, ErrMalformedSecret
	}
	return Secret{key: key}, nil
}

// String is the secret as the organizer receives it: whsec_ and the base64 of its bytes.
func (s Secret) String() string {
	return secretPrefix + base64.StdEncoding.EncodeToString(s.key)
}

// Sign returns the webhook-signature header of a message: one v1 signature per secret, in the
// order given (the newest first), separated by spaces. Each is the base64 of the HMAC-SHA256,
// under the secret, of msgID, the timestamp in Unix seconds and the body, joined by dots.
func Sign(secrets []Secret, msgID string, timestamp time.Time, body []byte) string {
	signed := make([]byte, 0, len(msgID)+len(body)+22)
	signed = append(signed, msgID...)
	signed = append(signed, '.')
	signed = strconv.AppendInt(signed, timestamp.Unix(), 10)
	signed = append(signed, '.')
	signed = append(signed, body...)
	sigs := make([]string, len(secrets))
	for i, s := range secrets {
		mac := hmac.New(sha256.New, s.key)
		mac.Write(signed)
		sigs[i] = "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil))
	}
	return strings.Join(sigs, " ")
}

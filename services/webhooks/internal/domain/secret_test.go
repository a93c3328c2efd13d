package domain

import (
	"bytes"
	"encoding/base64"
	"strings"
	"testing"
)

func TestSecretsAreSealedPerEndpoint(t *testing.T) {
	s := NewSecret()
	raw, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(s, SecretPrefix))
	if !strings.HasPrefix(s, SecretPrefix) || err != nil || len(raw) != 32 || s == NewSecret() {
		t.Fatalf("secret %q", s)
	}
	key, err := ParseSecretsKey(base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{7}, 32)))
	if err != nil {
		t.Fatal(err)
	}
	sealer, err := NewSealer(key)
	if err != nil {
		t.Fatal(err)
	}
	sealed := sealer.Seal("we_1", s)
	if bytes.Contains(sealed, []byte(s)) || bytes.Equal(sealed, sealer.Seal("we_1", s)) {
		t.Fatal("sealed secret is readable or not randomized")
	}
	if got, err := sealer.Open("we_1", sealed); err != nil || got != s {
		t.Fatalf("open: %q %v", got, err)
	}
	if _, err := sealer.Open("we_2", sealed); err == nil {
		t.Fatal("a secret sealed for one endpoint opened for another")
	}
	for _, bad := range []string{"", "c2hvcnQ=", "not base64!"} {
		if _, err := ParseSecretsKey(bad); err == nil {
			t.Errorf("key %q accepted", bad)
		}
	}
}

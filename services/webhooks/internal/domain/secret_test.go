package domain

import (
	"bytes"
	"encoding/base64"
	"testing"
)

func TestSecretsAreSealed(t *testing.T) {
	s := "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw6RnWnVJ58zQ="
	key, err := ParseSecretsKey(base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{7}, 32)))
	if err != nil {
		t.Fatal(err)
	}
	sealer, err := NewSealer(key)
	if err != nil {
		t.Fatal(err)
	}
	const endpoint = "we_j1I7uSzhcQBdWB5Qoo5l"
	sealed := sealer.Seal(endpoint, s)
	if bytes.Contains(sealed, []byte(s)) || bytes.Equal(sealed, sealer.Seal(endpoint, s)) {
		t.Fatal("sealed secret is readable or not randomized")
	}
	if got, err := sealer.Open(endpoint, sealed); err != nil || got != s {
		t.Fatalf("open: %q %v", got, err)
	}
	if _, err := sealer.Open("we_eK5HTZbmuNXQKRcMMd6Z", sealed); err == nil {
		t.Fatal("a secret opened as another endpoint's")
	}
	other, err := NewSealer(bytes.Repeat([]byte{8}, 32))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other.Open(endpoint, sealed); err == nil {
		t.Fatal("a secret opened under another key")
	}
	sealed[len(sealed)-1] ^= 1
	if _, err := sealer.Open(endpoint, sealed); err == nil {
		t.Fatal("a changed sealed secret opened")
	}
	for _, bad := range []string{"", "c2hvcnQ=", "not base64!"} {
		if _, err := ParseSecretsKey(bad); err == nil {
			t.Errorf("key %q accepted", bad)
		}
	}
}

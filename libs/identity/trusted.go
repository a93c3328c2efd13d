package identity

import (
	"crypto/ed25519"
	"encoding/base64"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// TrustedKeys are the public keys of the issuers a service accepts tokens from, by issuer.
// Several keys of one issuer let that issuer's key be rotated without refusing its tokens.
type TrustedKeys map[string][]ed25519.PublicKey

// ParseTrustedKeys decodes a comma-separated list of issuer:key entries (the key as the
// standard base64 of its 32 bytes), such as "gateway:<b64>,gateway:<b64>,checkout:<b64>", and
// checks that every issuer in required has at least one key. One key may belong to one issuer
// only: a verifier tells issuers apart by their keys.
func ParseTrustedKeys(s string, required ...string) (TrustedKeys, error) {
	out := TrustedKeys{}
	owner := map[string]string{}
	for entry := range strings.SplitSeq(s, ",") {
		entry = strings.TrimSpace(entry)
		if entry == "" {
			continue
		}
		issuer, encoded, ok := strings.Cut(entry, ":")
		issuer = strings.TrimSpace(issuer)
		if !ok || issuer == "" {
			return nil, fmt.Errorf("identity: trusted key %q must be issuer:base64-key", entry)
		}
		b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(encoded))
		if err != nil || len(b) != ed25519.PublicKeySize {
			return nil, fmt.Errorf("identity: the key of %s must be the base64 of a %d-byte Ed25519 public key", issuer, ed25519.PublicKeySize)
		}
		if prev, dup := owner[string(b)]; dup && prev != issuer {
			return nil, fmt.Errorf("identity: one key is listed for both %s and %s", prev, issuer)
		} else if dup {
			continue
		}
		owner[string(b)] = issuer
		out[issuer] = append(out[issuer], ed25519.PublicKey(b))
	}
	if len(out) == 0 {
		return nil, errors.New("identity: no trusted key is listed")
	}
	var missing []string
	for _, r := range required {
		if len(out[r]) == 0 {
			missing = append(missing, r)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("identity: no key of %s is listed", strings.Join(missing, ", "))
	}
	return out, nil
}

// String renders the keys in the form ParseTrustedKeys reads, issuers in name order.
func (t TrustedKeys) String() string {
	var parts []string
	for _, issuer := range slices.Sorted(maps.Keys(t)) {
		for _, k := range t[issuer] {
			parts = append(parts, issuer+":"+base64.StdEncoding.EncodeToString(k))
		}
	}
	return strings.Join(parts, ",")
}

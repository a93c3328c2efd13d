// Package apikey defines the format of API keys, so the gateway can refuse a malformed key
// without a lookup and auth can mint keys that the gateway recognises.
//
// A key is a fixed type prefix, 32 random base62 characters (190 bits) and a 6-character base62
// CRC-32 checksum of everything before it:
//
//	pdm_sk_live_<32 random><6 checksum>   secret key
//	pdm_pk_live_<32 random><6 checksum>   publishable key
//
// and the same with test_ for live_ for test-mode keys, whose requests read and write test data
// only (see Mode).
//
// Only the SHA-256 hash of a key is stored; the distinct prefixes also let secret scanners
// recognise a leaked key.
package apikey

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"hash/crc32"
	"strings"

	"github.com/podiumhq/podium/libs/ids"
)

// Type is the kind of key.
type Type string

// Key types.
const (
	Secret      Type = "secret"
	Publishable Type = "publishable"
)

// Mode says which data a key works on: live data, or test data kept apart from it.
type Mode string

// Key modes.
const (
	Live Mode = "live"
	Test Mode = "test"
)

// Prefixes of the key types in each mode.
const (
	SecretPrefix          = "pdm_sk_live_" //nolint:gosec // a public prefix, not a credential
	PublishablePrefix     = "pdm_pk_live_"
	SecretTestPrefix      = "pdm_sk_test_" //nolint:gosec // a public prefix, not a credential
	PublishableTestPrefix = "pdm_pk_test_"
)

const (
	bodyLen     = 32
	checksumLen = 6
	prefixLen   = len(SecretPrefix)
	// Length is the length of every key.
	Length = prefixLen + bodyLen + checksumLen
)

const alphabet = ids.Alphabet

// Errors returned by Parse; each is decided without a lookup.
var (
	ErrUnknownPrefix = errors.New("apikey: unknown key prefix")
	ErrMalformed     = errors.New("apikey: malformed key")
	ErrChecksum      = errors.New("apikey: checksum mismatch")
)

// Generate returns a new key of type t in mode m.
func Generate(t Type, m Mode) (string, error) {
	prefix, err := prefixOf(t, m)
	if err != nil {
		return "", err
	}
	body := ids.Random(prefix, bodyLen)
	return body + checksum(body), nil
}

// Parse checks a key's prefix, length, characters and checksum and returns its type and mode.
func Parse(key string) (Type, Mode, error) {
	var t Type
	var m Mode
	switch {
	case strings.HasPrefix(key, SecretPrefix):
		t, m = Secret, Live
	case strings.HasPrefix(key, PublishablePrefix):
		t, m = Publishable, Live
	case strings.HasPrefix(key, SecretTestPrefix):
		t, m = Secret, Test
	case strings.HasPrefix(key, PublishableTestPrefix):
		t, m = Publishable, Test
	default:
		return "", "", ErrUnknownPrefix
	}
	if len(key) != Length {
		return "", "", ErrMalformed
	}
	for i := prefixLen; i < Length; i++ {
		if !inAlphabet[key[i]] {
			return "", "", ErrMalformed
		}
	}
	if sum := checksumOf(key[:Length-checksumLen]); string(sum[:]) != key[Length-checksumLen:] {
		return "", "", ErrChecksum
	}
	return t, m, nil
}

// Hash returns the hex SHA-256 of key: the only form in which keys are stored or sent between
// services. Keys carry 190 random bits, so a fast hash is as safe as a slow one here.
func Hash(key string) string {
	var buf [Length]byte // a key on the stack: the gateway hashes one per request
	b := buf[:0]
	if len(key) > len(buf) {
		b = make([]byte, 0, len(key))
	}
	sum := sha256.Sum256(append(b, key...))
	var out [2 * sha256.Size]byte
	hex.Encode(out[:], sum[:])
	return string(out[:])
}

// Last4 returns the last four characters of key, shown in listings to tell keys apart.
func Last4(key string) string {
	if len(key) < 4 {
		return key
	}
	return key[len(key)-4:]
}

// Prefix returns the fixed prefix of keys of type t in mode m.
func Prefix(t Type, m Mode) string {
	p, _ := prefixOf(t, m)
	return p
}

// prefixes are the key prefixes by type and mode.
var prefixes = map[Type]map[Mode]string{
	Secret:      {Live: SecretPrefix, Test: SecretTestPrefix},
	Publishable: {Live: PublishablePrefix, Test: PublishableTestPrefix},
}

func prefixOf(t Type, m Mode) (string, error) {
	if p, ok := prefixes[t][m]; ok {
		return p, nil
	}
	return "", errors.New("apikey: unknown key type " + string(t) + " or mode " + string(m))
}

// checksum encodes the CRC-32 of s as 6 base62 characters.
func checksum(s string) string {
	sum := checksumOf(s)
	return string(sum[:])
}

// checksumOf is checksum without an allocation, for Parse, which runs on every request: it
// computes the CRC-32 (IEEE) byte by byte over the table, as crc32.ChecksumIEEE would after
// copying the string to the heap (a key is 44 bytes).
func checksumOf(s string) [checksumLen]byte {
	v := ^uint32(0)
	for i := range len(s) {
		v = crc32.IEEETable[(v^uint32(s[i]))&0xff] ^ v>>8
	}
	v = ^v
	var out [checksumLen]byte
	for i := checksumLen - 1; i >= 0; i-- {
		out[i] = alphabet[v%62]
		v /= 62
	}
	return out
}

// inAlphabet tells the characters of alphabet apart from every other byte.
var inAlphabet = func() (in [256]bool) {
	for i := range len(alphabet) {
		in[alphabet[i]] = true
	}
	return in
}()

package apikey_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/podiumhq/podium/libs/apikey"
)

func TestGenerateThenParse(t *testing.T) {
	seen := map[string]bool{}
	for _, typ := range []apikey.Type{apikey.Secret, apikey.Publishable} {
		for range 200 {
			k, err := apikey.Generate(typ)
			if err != nil {
				t.Fatal(err)
			}
			if len(k) != apikey.Length || !strings.HasPrefix(k, apikey.Prefix(typ)) || !strings.Contains(apikey.Prefix(typ), "_live_") {
				t.Fatalf("key %q has the wrong shape", k)
			}
			got, err := apikey.Parse(k)
			if err != nil || got != typ {
				t.Fatalf("Parse(%q) = %v, %v", k, got, err)
			}
			if seen[k] {
				t.Fatalf("duplicate key %q", k)
			}
			seen[k] = true
		}
	}
	if _, err := apikey.Generate("admin"); err == nil {
		t.Fatal("generated a key of an unknown type")
	}
}

func TestParseRefusesWithoutLookup(t *testing.T) {
	good, _ := apikey.Generate(apikey.Secret)
	body := good[len(apikey.SecretPrefix):]
	flip := func(s string, i int) string {
		c := byte('a')
		if s[i] == 'a' {
			c = 'b'
		}
		return s[:i] + string(c) + s[i+1:]
	}
	cases := map[string]error{
		"":                              apikey.ErrUnknownPrefix,
		"sk_live_" + body:               apikey.ErrUnknownPrefix,
		"pdm_sk_test_" + body:           apikey.ErrUnknownPrefix,
		good[:len(good)-1]:              apikey.ErrMalformed,
		good + "x":                      apikey.ErrMalformed,
		good[:20] + "-" + good[21:]:     apikey.ErrMalformed,
		flip(good, 20):                  apikey.ErrChecksum,
		flip(good, apikey.Length-1):     apikey.ErrChecksum,
		apikey.PublishablePrefix + body: apikey.ErrChecksum, // the checksum covers the prefix
	}
	for k, want := range cases {
		if _, err := apikey.Parse(k); !errors.Is(err, want) {
			t.Errorf("Parse(%q) = %v, want %v", k, err, want)
		}
	}
}

func TestHashAndLast4(t *testing.T) {
	k, _ := apikey.Generate(apikey.Publishable)
	if h := apikey.Hash(k); len(h) != 64 || h != apikey.Hash(k) || strings.Contains(h, k[12:20]) {
		t.Fatalf("Hash(%q) = %q", k, h)
	}
	if apikey.Last4(k) != k[len(k)-4:] {
		t.Fatal("Last4")
	}
}

// FuzzParse checks Parse on any string: it refuses with one of its three errors, without a
// lookup, or accepts a key of the exact length and prefix of its type, whose hash is 64 hex
// digits and whose every single-character change after the prefix (pos picks where) is caught
// by the checksum.
func FuzzParse(f *testing.F) {
	for _, typ := range []apikey.Type{apikey.Secret, apikey.Publishable} {
		k, _ := apikey.Generate(typ)
		f.Add(k, uint8(0))
		f.Add(k, uint8(37))
		f.Add(k[:len(k)-1], uint8(0))
		f.Add(" "+k, uint8(0))
	}
	f.Add("pdm_pk_live_", uint8(0))
	f.Add("pdm_sk_live_"+strings.Repeat("é", 19), uint8(0))
	f.Add("pdm_sk_test_000000000000000000000000000000000000000", uint8(1))
	f.Fuzz(func(t *testing.T, s string, pos uint8) {
		typ, err := apikey.Parse(s)
		if err != nil {
			if !errors.Is(err, apikey.ErrUnknownPrefix) && !errors.Is(err, apikey.ErrMalformed) && !errors.Is(err, apikey.ErrChecksum) {
				t.Fatalf("Parse(%q): %v", s, err)
			}
			return
		}
		if len(s) != apikey.Length || !strings.HasPrefix(s, apikey.Prefix(typ)) {
			t.Fatalf("Parse accepted %q as %s", s, typ)
		}
		if h := apikey.Hash(s); len(h) != 64 || strings.Trim(h, "0123456789abcdef") != "" || apikey.Last4(s) != s[len(s)-4:] {
			t.Fatalf("Hash(%q) = %q, Last4 %q", s, h, apikey.Last4(s))
		}
		i := len(apikey.Prefix(typ)) + int(pos)%(apikey.Length-len(apikey.Prefix(typ)))
		c := byte('a')
		if s[i] == c {
			c = 'b'
		}
		if _, err := apikey.Parse(s[:i] + string(c) + s[i+1:]); !errors.Is(err, apikey.ErrChecksum) {
			t.Fatalf("%q with character %d changed: %v, want a checksum mismatch", s, i, err)
		}
	})
}

func BenchmarkParse(b *testing.B) {
	k, _ := apikey.Generate(apikey.Secret)
	for b.Loop() {
		_, _ = apikey.Parse(k)
	}
}

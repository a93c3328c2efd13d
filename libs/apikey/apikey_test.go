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
		for _, mode := range []apikey.Mode{apikey.Live, apikey.Test} {
			for range 200 {
				k, err := apikey.Generate(typ, mode)
				if err != nil {
					t.Fatal(err)
				}
				if len(k) != apikey.Length || !strings.HasPrefix(k, apikey.Prefix(typ, mode)) || !strings.Contains(k, "_"+string(mode)+"_") {
					t.Fatalf("key %q has the wrong shape", k)
				}
				gotType, gotMode, err := apikey.Parse(k)
				if err != nil || gotType != typ || gotMode != mode {
					t.Fatalf("Parse(%q) = %v, %v, %v", k, gotType, gotMode, err)
				}
				if seen[k] {
					t.Fatalf("duplicate key %q", k)
				}
				seen[k] = true
			}
		}
	}
	if _, err := apikey.Generate("admin", apikey.Live); err == nil {
		t.Fatal("generated a key of an unknown type")
	}
	if _, err := apikey.Generate(apikey.Secret, "staging"); err == nil {
		t.Fatal("generated a key of an unknown mode")
	}
}

func TestParseRefusesWithoutLookup(t *testing.T) {
	good, _ := apikey.Generate(apikey.Secret, apikey.Live)
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
		"pdm_sk_demo_" + body:           apikey.ErrUnknownPrefix,
		apikey.SecretTestPrefix + body:  apikey.ErrChecksum, // a live key's body is no test key
		good[:len(good)-1]:              apikey.ErrMalformed,
		good + "x":                      apikey.ErrMalformed,
		good[:20] + "-" + good[21:]:     apikey.ErrMalformed,
		flip(good, 20):                  apikey.ErrChecksum,
		flip(good, apikey.Length-1):     apikey.ErrChecksum,
		apikey.PublishablePrefix + body: apikey.ErrChecksum, // the checksum covers the prefix
	}
	for k, want := range cases {
		if _, _, err := apikey.Parse(k); !errors.Is(err, want) {
			t.Errorf("Parse(%q) = %v, want %v", k, err, want)
		}
	}
}

func TestHashAndLast4(t *testing.T) {
	k, _ := apikey.Generate(apikey.Publishable, apikey.Live)
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
		for _, mode := range []apikey.Mode{apikey.Live, apikey.Test} {
			k, _ := apikey.Generate(typ, mode)
			f.Add(k, uint8(0))
			f.Add(k, uint8(37))
			f.Add(k[:len(k)-1], uint8(0))
			f.Add(" "+k, uint8(0))
		}
	}
	f.Add("pdm_pk_live_", uint8(0))
	f.Add("pdm_sk_live_"+strings.Repeat("é", 19), uint8(0))
	f.Add("pdm_sk_test_000000000000000000000000000000000000000", uint8(1))
	f.Fuzz(func(t *testing.T, s string, pos uint8) {
		typ, mode, err := apikey.Parse(s)
		if err != nil {
			if !errors.Is(err, apikey.ErrUnknownPrefix) && !errors.Is(err, apikey.ErrMalformed) && !errors.Is(err, apikey.ErrChecksum) {
				t.Fatalf("Parse(%q): %v", s, err)
			}
			return
		}
		if len(s) != apikey.Length || !strings.HasPrefix(s, apikey.Prefix(typ, mode)) {
			t.Fatalf("Parse accepted %q as %s", s, typ)
		}
		if h := apikey.Hash(s); len(h) != 64 || strings.Trim(h, "0123456789abcdef") != "" || apikey.Last4(s) != s[len(s)-4:] {
			t.Fatalf("Hash(%q) = %q, Last4 %q", s, h, apikey.Last4(s))
		}
		i := len(apikey.Prefix(typ, mode)) + int(pos)%(apikey.Length-len(apikey.Prefix(typ, mode)))
		c := byte('a')
		if s[i] == c {
			c = 'b'
		}
		if _, _, err := apikey.Parse(s[:i] + string(c) + s[i+1:]); !errors.Is(err, apikey.ErrChecksum) {
			t.Fatalf("%q with character %d changed: %v, want a checksum mismatch", s, i, err)
		}
	})
}

func BenchmarkParse(b *testing.B) {
	k, _ := apikey.Generate(apikey.Secret, apikey.Live)
	for b.Loop() {
		_, _, _ = apikey.Parse(k)
	}
}

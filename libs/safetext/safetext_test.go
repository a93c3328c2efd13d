package safetext_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/podiumhq/podium/libs/safetext"
)

func TestValid(t *testing.T) {
	cases := []struct {
		s    string
		want bool
	}{
		{"", true},
		{"Trail Club", true},
		{"Lucía García", true},
		{"Iron Pair 🏋️‍♀️", true},      // an emoji sequence joined by U+200D
		{"می\u200cخواهم", true},        // Persian with a zero-width non-joiner
		{"Ünïcødé – “quotes” …", true}, // punctuation and symbols
		{"a\u00a0b", true},             // a no-break space is a space, not a control
		{"backend\n2026-11-28 key.revoked", false},
		{"tab\there", false},
		{"cr\rhere", false},
		{"\x1b[2Kcleared", false},
		{"del\x7f", false},
		{"c1\u009b2K", false}, // CSI as a C1 control
		{"evil\u202etxt.exe", false},
		{"isolate\u2066x\u2069", false},
		{"mark\u200f", false},
		{"zero\u200bwidth", false},
		{"bom\ufeff", false},
		{"soft\u00adhyphen", false},
		{"tag\U000E0041", true}, // beyond the BMP: moves nothing (flags need tags)
		{"scotland \U0001F3F4\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F", true},
		{"line\u2028sep", false},
		{"para\u2029sep", false},
		{"bad\xffutf8", false},
	}
	re := regexp.MustCompile(safetext.Pattern)
	for _, c := range cases {
		if got := safetext.Valid(c.s); got != c.want {
			t.Errorf("Valid(%q) = %v, want %v", c.s, got, c.want)
		}
		if utf8.ValidString(c.s) && re.MatchString(c.s) != c.want {
			t.Errorf("Pattern on %q = %v, want %v", c.s, !c.want, c.want)
		}
	}
}

func TestEscape(t *testing.T) {
	cases := map[string]string{
		"Trail Club":                  "Trail Club",
		`AC\DC`:                       `AC\DC`,
		"secret key x\n2026-11-28 ok": `"secret key x\n2026-11-28 ok"`,
		"\x1b[2Khidden":               `"\x1b[2Khidden"`,
		"rtl\u202eexe.txt":            `"rtl\u202eexe.txt"`,
		"bad\xff":                     `"bad\xff"`,
		"backend\U000E0041\U000E0042": `"backend\U000e0041\U000e0042"`, // a valid name, whose tags an operator sees
		"Lucía 🏋️‍♀️":                 "Lucía 🏋️‍♀️",
	}
	for in, want := range cases {
		if got := safetext.Escape(in); got != want {
			t.Errorf("Escape(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestEscapeJSON(t *testing.T) {
	in := []byte("{\n\t\"name\": \"a\u202eb\\n\u009b\ufeff\U000E0041\",\n  \"ok\": \"Lucía 🏋️‍♀️\"\n}")
	want := "{\n\t\"name\": \"a\\u202eb\\n\\u009b\\ufeff\\udb40\\udc41\",\n  \"ok\": \"Lucía 🏋️‍♀️\"\n}"
	if got := string(safetext.EscapeJSON(in)); got != want {
		t.Fatalf("EscapeJSON:\n got %s\nwant %s", got, want)
	}
	clean := []byte(`{"name": "Trail Club", "n": 1}`)
	if got := safetext.EscapeJSON(clean); &got[0] != &clean[0] {
		t.Fatal("EscapeJSON copied a text with nothing to escape")
	}
	if got := string(safetext.EscapeJSON([]byte("{\x1b[2K}\r"))); got != `{\u001b[2K}\u000d` {
		t.Fatalf("controls outside strings: %q", got)
	}
}

// FuzzEscape: whatever the text, its escaped form holds nothing invisible, and reads back as
// the text; a text with nothing invisible is printed as it is.
func FuzzEscape(f *testing.F) {
	for _, s := range []string{"Trail Club", "x\n2026 key.revoked", "\x1b[2K", "a\u202eb", "\xff", `"q\"`, "tag\U000E0041"} {
		f.Add(s)
	}
	re := regexp.MustCompile(safetext.Pattern)
	visible := func(s string) bool { return utf8.ValidString(s) && !strings.ContainsFunc(s, safetext.Invisible) }
	f.Fuzz(func(t *testing.T, s string) {
		e := safetext.Escape(s)
		if !visible(e) {
			t.Fatalf("Escape(%q) = %q holds an invisible character", s, e)
		}
		if visible(s) {
			if e != s {
				t.Fatalf("Escape changed the visible %q to %q", s, e)
			}
		} else if back, err := strconv.Unquote(e); err != nil || back != s {
			t.Fatalf("Escape(%q) = %s does not read back: %q, %v", s, e, back, err)
		}
		if utf8.ValidString(s) && re.MatchString(s) != safetext.Valid(s) {
			t.Fatalf("Pattern and Valid disagree on %q", s)
		}
	})
}

// FuzzEscapeJSON: the escaped JSON holds the same value and nothing invisible.
func FuzzEscapeJSON(f *testing.F) {
	for _, s := range []string{"Trail Club", "x\n2026 key.revoked", "\x1b[2K", "a\u202eb\U000E0041", "\xff", `"q\"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		raw, err := json.MarshalIndent(map[string]any{"s": s, "list": []string{s}}, "", "\t")
		if err != nil {
			t.Fatal(err)
		}
		escaped := safetext.EscapeJSON(raw)
		var before, after any
		if err := json.Unmarshal(raw, &before); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(escaped, &after); err != nil {
			t.Fatalf("escaped JSON %q is invalid: %v", escaped, err)
		}
		b1, _ := json.Marshal(before)
		b2, _ := json.Marshal(after)
		if !bytes.Equal(b1, b2) {
			t.Fatalf("escaping changed the value: %s, then %s", b1, b2)
		}
		if rest := strings.NewReplacer("\n", "", "\t", "").Replace(string(escaped)); !utf8.ValidString(rest) || strings.ContainsFunc(rest, safetext.Invisible) {
			t.Fatalf("EscapeJSON left something invisible: %q", escaped)
		}
	})
}

func TestValidBytes(t *testing.T) {
	for _, s := range []string{"Trail Club", "a\nb", "\ufffd", "bad\xff", "a\u202e", "Iron 🏋️‍♀️", "\xef\xbf"} {
		if safetext.ValidBytes([]byte(s)) != safetext.Valid(s) {
			t.Errorf("ValidBytes(%q) != Valid", s)
		}
	}
	if safetext.Valid("bad\xff") || !safetext.Valid("\ufffd") {
		t.Error("an invalid byte is unsafe; the character U+FFFD is not")
	}
	name := []byte("Lucía García Fernández")
	if n := testing.AllocsPerRun(100, func() { safetext.ValidBytes(name) }); n != 0 {
		t.Errorf("ValidBytes allocates %v times", n)
	}
}

func BenchmarkValidBytes(b *testing.B) {
	name := []byte("Lucía García Fernández")
	for b.Loop() {
		safetext.ValidBytes(name)
	}
}

// unsafeInTables is the rule as Unicode's tables state it: the BMP's Cc, Cf, Zl and Zp but for
// the two joiners.
func unsafeInTables(r rune) bool {
	return r <= 0xffff && unicode.In(r, unicode.Cc, unicode.Cf, unicode.Zl, unicode.Zp) && r != '\u200c' && r != '\u200d'
}

// TestUnsafeIsTheUnicodeCategories: the fast paths of Unsafe say what the categories say.
func TestUnsafeIsTheUnicodeCategories(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if want := unsafeInTables(r); safetext.Unsafe(r) != want {
			t.Fatalf("Unsafe(%U) = %v, want %v", r, !want, want)
		}
	}
}

// TestPatternIsTheUnicodeCategories: Pattern's class lists exactly the ranges of unsafe
// characters of this Go's Unicode tables, written as every dialect reads them (a new Unicode
// version that adds a format character fails here until Pattern and the OpenAPI document
// name it).
func TestPatternIsTheUnicodeCategories(t *testing.T) {
	char := func(r rune) string {
		if r < 0x100 {
			return fmt.Sprintf(`\x%02x`, r)
		}
		return string(r)
	}
	var class strings.Builder
	for r := rune(0); r <= 0xffff; r++ {
		if !unsafeInTables(r) || r > 0 && unsafeInTables(r-1) {
			continue
		}
		end := r
		for end < 0xffff && unsafeInTables(end+1) {
			end++
		}
		class.WriteString(char(r))
		if end > r {
			class.WriteString("-" + char(end))
		}
	}
	if want := "^[^" + class.String() + "]*$"; safetext.Pattern != want {
		t.Fatalf("Pattern is\n%+q\nwant\n%+q", safetext.Pattern, want)
	}
}

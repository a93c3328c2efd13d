// Package safetext keeps stored text from forging or hiding what people read: it tells which
// names are safe to accept (Valid) and escapes text for a terminal (Escape, EscapeJSON), so a
// name cannot start a line of its own, move the cursor, clear what was printed or reorder the
// text after it.
//
// The unsafe characters are those of the Basic Multilingual Plane that are control characters
// (Unicode Cc: C0, DEL and C1, among them line breaks, tabs and the escape that starts ANSI
// sequences), format characters (Cf: direction overrides and isolates, zero-width spaces, the
// byte order mark, …) except the zero-width non-joiner and joiner, and line and paragraph
// separators (Zl, Zp). The two joiners are kept: Persian and Indic words and emoji sequences
// need them, and they neither hide nor reorder text. The format characters beyond the BMP
// (emoji flags' tags, musical and hieroglyph layout marks) are kept too: they move nothing, the
// subdivision flags need them, and leaving them out keeps Pattern one that JSON Schema's
// dialects read alike (a character class beyond the BMP means other things in ECMA-262
// without its u flag). Invisible as they are, terminal output escapes them too.
package safetext

import (
	"strconv"
	"unicode"
	"unicode/utf8"
)

// Rule words the rule for a problem about one field, after its name ("name " + Rule).
const Rule = "must not contain control characters (line breaks, tabs, escape sequences, " +
	"direction overrides or other invisible formatting)"

// Pattern is the regular expression of a safe text: what Valid accepts among valid UTF-8
// strings. The OpenAPI document's names carry it, so it is written to mean the same in JSON
// Schema's dialect (ECMA-262, with or without the u flag) and Go's, and to compile in Python's
// and Java's: one class of the unsafe characters, each range given by its bounds (\x escapes
// below U+0100, the characters themselves above), no Unicode property escapes. (Where `$` may
// match before a final line feed, as in Python's re.search, a client's check lets a name
// ending in one through; the server refuses it.) A test holds it to Unsafe.
const Pattern = "^[^\\x00-\\x1f\\x7f-\\x9f\\xad\u0600-\u0605\u061c\u06dd\u070f\u0890-\u0891\u08e2\u180e\u200b" +
	"\u200e-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]*$"

// Format characters: the two that are safe, and the only one below U+0600.
const (
	zeroWidthNonJoiner = '\u200c'
	zeroWidthJoiner    = '\u200d'
	softHyphen         = '\u00ad'
)

// Unsafe reports whether r is a character of the BMP that can forge or hide text where it is
// shown: a control character, a format character other than the two joiners, or a line or
// paragraph separator.
func Unsafe(r rune) bool {
	switch {
	case r < 0x20 || r >= 0x7f && r < 0xa0: // C0, DEL, C1
		return true
	case r < 0x600: // Latin, Greek, Cyrillic, Armenian, Hebrew: one format character
		return r == softHyphen
	case r == zeroWidthNonJoiner || r == zeroWidthJoiner || r > 0xffff:
		return false
	}
	return unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp)
}

// Valid reports whether s is valid UTF-8 without an unsafe character.
func Valid(s string) bool {
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if size == 1 || Unsafe(r) { // size 1 off ASCII: a byte that is not UTF-8
			return false
		}
		i += size
	}
	return true
}

// ValidBytes is Valid for bytes, without copying them.
func ValidBytes(b []byte) bool {
	for i := 0; i < len(b); {
		if c := b[i]; c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if size == 1 || Unsafe(r) {
			return false
		}
		i += size
	}
	return true
}

// Invisible reports whether r is written as an escape on a terminal: an unsafe character, or a
// format character beyond the BMP (a tag, invisible: names may hold them, in a flag, but what
// an operator reads shows each).
func Invisible(r rune) bool {
	return Unsafe(r) || r > 0xffff && unicode.Is(unicode.Cf, r)
}

// Escape returns s as it is when it is valid UTF-8 with no Invisible character, and otherwise
// quoted and escaped as a Go string literal (strconv.Quote): "key\n2026-11-28 key.revoked"
// prints on one line, with its quotes telling that it was escaped, and a name ending in
// invisible tags shows them.
func Escape(s string) string {
	if !utf8.ValidString(s) {
		return strconv.Quote(s)
	}
	for _, r := range s {
		if Invisible(r) {
			return strconv.Quote(s)
		}
	}
	return s
}

// EscapeJSON returns the JSON text b with every Invisible character and invalid byte written
// as a \u escape (U+FFFD for an invalid byte), so the JSON means what it meant and prints safely;
// the newlines, tabs and spaces between its tokens are kept (nothing else unsafe can be there
// in valid JSON). It returns b itself when there is nothing to escape.
func EscapeJSON(b []byte) []byte {
	var out []byte
	inString, escaped, done := false, false, 0
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			switch {
			case !inString && (c >= 0x20 && c != 0x7f || c == '\n' || c == '\t'):
				inString = c == '"'
			case !inString:
				out = appendEscape(append(out, b[done:i]...), rune(c))
				done = i + 1
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			case c < 0x20 || c == 0x7f:
				out = appendEscape(append(out, b[done:i]...), rune(c))
				done = i + 1
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			r = utf8.RuneError
		} else if !Invisible(r) {
			i += size
			continue
		}
		out = appendEscape(append(out, b[done:i]...), r)
		i += size
		done = i
	}
	if out == nil {
		return b
	}
	return append(out, b[done:]...)
}

// appendEscape appends r as JSON's \u escape, a surrogate pair beyond the Basic Multilingual
// Plane.
func appendEscape(b []byte, r rune) []byte {
	if r >= 0x10000 {
		r -= 0x10000
		b = appendHex(b, 0xd800+(r>>10))
		return appendHex(b, 0xdc00+(r&0x3ff))
	}
	return appendHex(b, r)
}

func appendHex(b []byte, r rune) []byte {
	const digits = "0123456789abcdef"
	return append(b, '\\', 'u', digits[r>>12&0xf], digits[r>>8&0xf], digits[r>>4&0xf], digits[r&0xf])
}

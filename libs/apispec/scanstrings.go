package apispec

import (
	"bytes"
	"encoding/binary"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// byteClasses sorts the bytes of a string: plainASCII and plainUTF8 bytes stand for
// themselves; the others (a quote, a backslash, a control character) end the run of plain
// bytes.
var byteClasses = func() (classes [256]uint8) {
	for c := range classes {
		switch {
		case c < ' ' || c == '"' || c == '\\':
			classes[c] = special
		case c >= utf8.RuneSelf:
			classes[c] = plainUTF8
		default:
			classes[c] = plainASCII
		}
	}
	return classes
}()

// The classes of byteClasses.
const (
	plainASCII = iota
	plainUTF8
	special
)

// A rawString is a string of the body as it is written: its bytes between the quotes, whether
// it has escapes and whether all its bytes are ASCII.
type rawString struct {
	bytes          []byte
	at             int // where bytes start in the body
	escaped, ascii bool
}

// readString reads the string whose opening quote is at s.pos, with the escapes and
// characters encoding/json accepts; ok is false (and the body broken) when it is not one.
func (s *scan) readString() (raw rawString, ok bool) {
	body, i := s.body, s.pos+1
	start := i
	raw.ascii = true
	for i < len(body) {
		if i+8 <= len(body) && plainWord(binary.LittleEndian.Uint64(body[i:])) {
			i += 8
			continue
		}
		switch c := body[i]; byteClasses[c] {
		case plainASCII:
			i++
			continue
		case plainUTF8:
			raw.ascii = false
			i++
			continue
		}
		s.pos = i
		switch body[i] {
		case '"':
			raw.bytes, raw.at = body[start:i], start
			s.pos++
			return raw, true
		case '\\':
			raw.escaped = true
			if s.escape() {
				i = s.pos
				continue
			}
		}
		break
	}
	s.broken = true
	return raw, false
}

// plainWord reports whether the 8 bytes of x are all plain ASCII: neither a quote, a
// backslash, a control character nor a byte of a multi-byte character.
func plainWord(x uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	quote, backslash := x^(ones*'"'), x^(ones*'\\')
	found := (quote - ones) &^ quote
	found |= (backslash - ones) &^ backslash
	found |= (x - ones*' ') &^ x
	return (found|x)&highs == 0
}

// escape moves past the escape whose backslash is at s.pos and reports whether it is one
// JSON has.
func (s *scan) escape() bool {
	if s.pos+1 >= len(s.body) {
		return false
	}
	switch s.body[s.pos+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		s.pos += 2
		return true
	case 'u':
		if s.pos+6 > len(s.body) {
			return false
		}
		for _, c := range s.body[s.pos+2 : s.pos+6] {
			if hexValue(c) < 0 {
				return false
			}
		}
		s.pos += 6
		return true
	}
	return false
}

// decode returns the string raw stands for, as encoding/json decodes it: escapes replaced, and
// each byte that is not part of valid UTF-8 replaced by U+FFFD. A string that needs neither is
// its own bytes; another is decoded at the end of *buf.
func decode(raw rawString, buf *[]byte) []byte {
	if !raw.escaped && (raw.ascii || utf8.Valid(raw.bytes)) {
		return raw.bytes
	}
	start := len(*buf)
	out := *buf
	b := raw.bytes
	for i := 0; i < len(b); {
		switch c := b[i]; {
		case c == '\\' && b[i+1] == 'u':
			r := hex4(b[i+2:])
			i += 6
			if utf16.IsSurrogate(r) {
				next := rune(-1)
				if i+6 <= len(b) && b[i] == '\\' && b[i+1] == 'u' {
					next = hex4(b[i+2:])
				}
				if pair := utf16.DecodeRune(r, next); pair != unicode.ReplacementChar {
					out = utf8.AppendRune(out, pair)
					i += 6
					continue
				}
				r = unicode.ReplacementChar
			}
			out = utf8.AppendRune(out, r)
		case c == '\\':
			out = append(out, unescaped(b[i+1]))
			i += 2
		case c < utf8.RuneSelf:
			out = append(out, c)
			i++
		default:
			r, size := utf8.DecodeRune(b[i:])
			out = utf8.AppendRune(out, r)
			i += size
		}
	}
	*buf = out
	return out[start:]
}

// unescaped returns the byte a one-letter escape stands for.
func unescaped(c byte) byte {
	switch c {
	case 'b':
		return '\b'
	case 'f':
		return '\f'
	case 'n':
		return '\n'
	case 'r':
		return '\r'
	case 't':
		return '\t'
	default:
		return c // '"', '\\' and '/'
	}
}

// hex4 reads the four hexadecimal digits that start b.
func hex4(b []byte) rune {
	var r rune
	for _, c := range b[:4] {
		r = r<<4 | hexValue(c)
	}
	return r
}

// hexValue returns the value of a hexadecimal digit, -1 for another byte.
func hexValue(c byte) rune {
	switch {
	case c >= '0' && c <= '9':
		return rune(c - '0')
	case c >= 'a' && c <= 'f':
		return rune(c - 'a' + 10)
	case c >= 'A' && c <= 'F':
		return rune(c - 'A' + 10)
	}
	return -1
}

// stringValue reads a string value and checks it: its shape (no U+0000), then its maximum
// lengths, then its rules. It reports whether the string was cut, past a maximum length.
func (s *scan) stringValue(c *valueCheck) (cut bool) {
	raw, ok := s.readString()
	if !ok || (c == nil && !raw.escaped) {
		return false
	}
	s.text = s.text[:0]
	str := decode(raw, &s.text)
	if raw.escaped && bytes.IndexByte(str, 0) >= 0 {
		s.problem(&s.found.shapes, nulWording)
	}
	if c == nil {
		return false
	}
	runes := len(str)
	if raw.escaped || !raw.ascii {
		runes = countRunes(str)
	}
	if runes > c.shortest {
		for _, b := range c.maxLength {
			if runes > b.limit {
				s.problem(&s.found.problems, b.problem)
			}
		}
		return true
	}
	for _, r := range c.rules {
		s.stringRule(r, str, runes)
	}
	return false
}

package apispec

import (
	"cmp"
	"strconv"
)

// Limits on number literals. The schema library compares numbers as exact
// rationals, and turning a literal such as 1e-999999 into one takes tens of
// milliseconds; a body full of them would stall the validator. No field of
// the API needs numbers beyond these limits (float64 stops near 1e308).
const (
	maxNumberLength   = 100
	maxNumberExponent = 400
)

// isHugeNumber reports whether one number literal is beyond the limits.
func isHugeNumber[T ~string | ~[]byte](lit T) bool {
	if len(lit) > maxNumberLength {
		return true
	}
	for i := 0; i < len(lit); i++ {
		if lit[i] == 'e' || lit[i] == 'E' {
			exp, err := strconv.Atoi(string(lit[i+1:]))
			return err != nil || exp > maxNumberExponent || exp < -maxNumberExponent
		}
	}
	return false
}

// A decimal is a number literal read exactly, as the library reads it into a big.Rat, without
// its cost: its value is 0.d₁d₂…dₙ × 10^exp, negated when neg, where d₁…dₙ are the digits of
// head then those of tail, with no leading or trailing zero (none at all for zero).
type decimal struct {
	neg        bool
	head, tail []byte
	exp        int
	// integer is the value of a literal of at most maxIntegerDigits digits, no fraction and no
	// exponent, which compares faster as an int64; isInt reports that there is one.
	integer int64
	isInt   bool
}

// maxIntegerDigits is the most digits of an integer read as an int64.
const maxIntegerDigits = 18

// maxExponent caps the exponent a decimal keeps: far beyond any bound a schema sets, so that
// comparisons with them keep their result.
const maxExponent = 1 << 40

// readDecimal reads a literal of the JSON number grammar.
func readDecimal(lit []byte) decimal {
	neg := lit[0] == '-'
	if neg {
		lit = lit[1:]
	}
	n := digitRun(lit)
	whole, rest := lit[:n], lit[n:]
	var fraction, exponent []byte
	if len(rest) > 0 && rest[0] == '.' {
		n = digitRun(rest[1:])
		fraction, rest = rest[1:1+n], rest[1+n:]
	}
	if len(rest) > 0 {
		exponent = rest[1:]
	}
	return decimalOf(neg, whole, fraction, exponent)
}

// decimalOf reads the parts of a number literal: its sign, the digits before the point and
// after it, and those of its exponent with their sign (nil when it has none).
func decimalOf(neg bool, whole, fraction, exponent []byte) decimal {
	d := decimal{neg: neg}
	if fraction == nil && exponent == nil && len(whole) <= maxIntegerDigits {
		d.isInt = true
		for _, c := range whole {
			d.integer = d.integer*10 + int64(c-'0')
		}
		if neg {
			d.integer = -d.integer
		}
	}
	exp := 0
	if exponent != nil {
		exp = readExponent(exponent)
	}
	head, tail := whole, fraction
	if len(head) == 1 && head[0] == '0' {
		zeros := 0
		for zeros < len(tail) && tail[zeros] == '0' {
			zeros++
		}
		head, tail, exp = nil, tail[zeros:], exp-zeros
	} else {
		exp += len(head)
	}
	tail = trimZerosRight(tail)
	if len(tail) == 0 {
		head = trimZerosRight(head)
	}
	if len(head)+len(tail) == 0 {
		return decimal{isInt: d.isInt}
	}
	d.head, d.tail, d.exp = head, tail, exp
	return d
}

// readExponent reads the digits after an e, with their sign, capped at ±maxExponent.
func readExponent(b []byte) int {
	sign := 1
	if len(b) > 0 && (b[0] == '+' || b[0] == '-') {
		if b[0] == '-' {
			sign = -1
		}
		b = b[1:]
	}
	n := 0
	for _, c := range b {
		n = min(n*10+int(c-'0'), maxExponent)
	}
	return sign * n
}

// trimZerosRight drops the zeros that end b.
func trimZerosRight(b []byte) []byte {
	for len(b) > 0 && b[len(b)-1] == '0' {
		b = b[:len(b)-1]
	}
	return b
}

// digits is how many significant digits d has.
func (d decimal) digits() int { return len(d.head) + len(d.tail) }

// digit returns the i-th significant digit of d.
func (d decimal) digit(i int) byte {
	if i < len(d.head) {
		return d.head[i]
	}
	return d.tail[i-len(d.head)]
}

// sign is -1, 0 or 1.
func (d decimal) sign() int {
	switch {
	case d.digits() == 0:
		return 0
	case d.neg:
		return -1
	default:
		return 1
	}
}

// isInteger reports whether d has no fractional part.
func (d decimal) isInteger() bool {
	return d.isInt || d.digits() == 0 || d.exp >= d.digits()
}

// compareDecimals orders a and b by value.
func compareDecimals(a, b *decimal) int {
	if a.isInt && b.isInt {
		return cmp.Compare(a.integer, b.integer)
	}
	sa, sb := a.sign(), b.sign()
	if sa != sb || sa == 0 {
		return cmp.Compare(sa, sb)
	}
	magnitude := cmp.Compare(a.exp, b.exp)
	for i := 0; magnitude == 0 && i < min(a.digits(), b.digits()); i++ {
		magnitude = cmp.Compare(a.digit(i), b.digit(i))
	}
	if magnitude == 0 {
		magnitude = cmp.Compare(a.digits(), b.digits())
	}
	return sa * magnitude
}

// A numberBound is a minimum or maximum on numbers, inclusive or exclusive.
type numberBound struct {
	limit decimal
	// refuses reports whether a value that compares with limit as c breaks the bound.
	refuses func(c int) bool
	problem *wording
}

func refusesBelow(c int) bool     { return c < 0 }
func refusesAtOrBelow(c int) bool { return c <= 0 }
func refusesAbove(c int) bool     { return c > 0 }
func refusesAtOrAbove(c int) bool { return c >= 0 }

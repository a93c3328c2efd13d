package httpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/big"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"
)

// DecodeJSON decodes the request body into v; an empty body decodes as {}. JSON Schema, and so
// the gateway's validation, counts 7.0 and 7e0 as the integer 7: a body refused only because
// such a number went into an integer field is decoded again with its integral numbers written
// plainly. A body holding the character U+0000 in a string is refused, as the gateway's
// validation refuses it: PostgreSQL stores it in neither text nor jsonb.
func DecodeJSON(c *fiber.Ctx, v any) error {
	body := c.Body()
	if len(body) == 0 {
		return nil
	}
	if holdsNul(body) {
		return errNul
	}
	err := json.Unmarshal(body, v)
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) && strings.HasPrefix(typeErr.Value, "number") {
		if plain, ok := plainIntegers(body); ok {
			err = json.Unmarshal(plain, v)
		}
	}
	if err != nil {
		return BadRequest("body must be a valid JSON object of the documented shape")
	}
	return nil
}

var errNul = BadRequest("body must not contain the character U+0000")

// holdsNul reports whether a string of the JSON body holds U+0000, which JSON writes only as
// the escape \u0000 (a raw control character in a string is not JSON): "u0000" after an odd
// number of backslashes.
func holdsNul(body []byte) bool {
	for from := 0; ; {
		i := bytes.Index(body[from:], []byte("u0000"))
		if i < 0 {
			return false
		}
		i += from
		backslashes := 0
		for j := i - 1; j >= 0 && body[j] == '\\'; j-- {
			backslashes++
		}
		if backslashes%2 == 1 {
			return true
		}
		from = i + 1
	}
}

// maxIntegerLiteral is the longest number literal read as an integer: 64 bits need at most 20
// digits, and room is left for a sign, a fraction of zeros and an exponent.
const maxIntegerLiteral = 64

// plainIntegers rewrites every integral number of body that fits 64 bits in plain form.
func plainIntegers(body []byte) ([]byte, bool) {
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber()
	var doc any
	if err := d.Decode(&doc); err != nil {
		return nil, false
	}
	out, err := json.Marshal(rewriteIntegers(doc))
	return out, err == nil
}

func rewriteIntegers(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = rewriteIntegers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = rewriteIntegers(e)
		}
	case json.Number:
		// Only literals a 64-bit integer can be written as (a long mantissa costs ParseFloat
		// quadratic time); 128 bits hold every 64-bit integer exactly.
		if len(x) > maxIntegerLiteral {
			return x
		}
		f, _, err := big.ParseFloat(string(x), 10, 128, big.ToNearestEven)
		if err != nil || !f.IsInt() {
			return x
		}
		if n, acc := f.Int64(); acc == big.Exact {
			return json.Number(strconv.FormatInt(n, 10))
		}
	}
	return v
}

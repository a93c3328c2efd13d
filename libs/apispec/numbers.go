package apispec

import (
	"encoding/json"
	"strconv"
	"strings"
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
func isHugeNumber(n json.Number) bool {
	s := string(n)
	if len(s) > maxNumberLength {
		return true
	}
	i := strings.IndexAny(s, "eE")
	if i < 0 {
		return false
	}
	exp, err := strconv.Atoi(s[i+1:])
	return err != nil || exp > maxNumberExponent || exp < -maxNumberExponent
}

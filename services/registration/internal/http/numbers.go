package http

import (
	"errors"
	"math/big"
	"strconv"
)

// wholeNumber is an integer field of a request body. JSON Schema counts any number without a
// fractional part as an integer, so the schema (and the gateway) accept 7.0 and 7e0 for 7; a
// plain int64 field would refuse them after validation passed. The schema has already bounded
// the value, and refused number literals too long to parse cheaply, when a body is decoded.
type wholeNumber int64

// UnmarshalJSON reads an integral JSON number in any notation.
func (n *wholeNumber) UnmarshalJSON(b []byte) error {
	if v, err := strconv.ParseInt(string(b), 10, 64); err == nil {
		*n = wholeNumber(v)
		return nil
	}
	r, ok := new(big.Rat).SetString(string(b))
	if !ok || !r.IsInt() || !r.Num().IsInt64() {
		return errors.New("not a whole number within 64 bits")
	}
	*n = wholeNumber(r.Num().Int64())
	return nil
}

// int64 returns the value, or nil when the field was absent.
func (n *wholeNumber) int64() *int64 {
	if n == nil {
		return nil
	}
	v := int64(*n)
	return &v
}

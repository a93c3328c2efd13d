package store

import (
	"encoding/json"
	"strconv"
	"time"
	"unicode/utf8"
)

// rowsJSON builds the JSON array of rows that InsertOrders, InsertRegistrations and
// InsertTickets read (json_populate_recordset): an object per row keyed by column name. A NULL
// column is left out, as a missing key reads as NULL. It appends to one buffer instead of
// marshalling row structs by reflection, which cost more than the rest of a combined create's
// Go work.
type rowsJSON struct {
	b     []byte
	first bool // no field written yet in the current row
}

func newRowsJSON(capacity int) *rowsJSON { return &rowsJSON{b: append(make([]byte, 0, capacity), '[')} }

// row starts a row.
func (w *rowsJSON) row() {
	if len(w.b) > 1 {
		w.b = append(w.b, ',')
	}
	w.b = append(w.b, '{')
	w.first = true
}

// end ends a row.
func (w *rowsJSON) end() { w.b = append(w.b, '}') }

// bytes returns the array (rows must be ended).
func (w *rowsJSON) bytes() []byte { return append(w.b, ']') }

// empty reports whether no row was written.
func (w *rowsJSON) empty() bool { return len(w.b) == 1 }

func (w *rowsJSON) key(k string) {
	if !w.first {
		w.b = append(w.b, ',')
	}
	w.first = false
	w.b = append(w.b, '"')
	w.b = append(w.b, k...)
	w.b = append(w.b, '"', ':')
}

func (w *rowsJSON) str(k, v string) {
	w.key(k)
	w.b = appendJSONString(w.b, v)
}

func (w *rowsJSON) strPtr(k string, v *string) {
	if v != nil {
		w.str(k, *v)
	}
}

func (w *rowsJSON) int(k string, v int64) {
	w.key(k)
	w.b = strconv.AppendInt(w.b, v, 10)
}

func (w *rowsJSON) intPtr(k string, v *int64) {
	if v != nil {
		w.int(k, *v)
	}
}

func (w *rowsJSON) bool(k string, v bool) {
	w.key(k)
	w.b = strconv.AppendBool(w.b, v)
}

func (w *rowsJSON) time(k string, v time.Time) {
	w.key(k)
	w.b = appendJSONTime(w.b, v)
}

func (w *rowsJSON) timePtr(k string, v *time.Time) {
	if v != nil {
		w.time(k, *v)
	}
}

func (w *rowsJSON) strs(k string, v []string) {
	w.key(k)
	w.b = append(w.b, '[')
	for i, s := range v {
		if i > 0 {
			w.b = append(w.b, ',')
		}
		w.b = appendJSONString(w.b, s)
	}
	w.b = append(w.b, ']')
}

func (w *rowsJSON) times(k string, v []time.Time) {
	w.key(k)
	w.b = append(w.b, '[')
	for i, t := range v {
		if i > 0 {
			w.b = append(w.b, ',')
		}
		w.b = appendJSONTime(w.b, t)
	}
	w.b = append(w.b, ']')
}

// value writes v as encoding/json does (a JSON column), or empty when v has nothing to say
// (an empty list or object, the common case, is written without reflection).
func (w *rowsJSON) value(k string, v any, isEmpty bool, empty string) error {
	w.key(k)
	if isEmpty {
		w.b = append(w.b, empty...)
		return nil
	}
	b, err := json.Marshal(v)
	w.b = append(w.b, b...)
	return err
}

// appendJSONTime appends t truncated to the microsecond, as pgx sends a timestamptz (Postgres
// would round the nanoseconds of a text instead).
func appendJSONTime(b []byte, t time.Time) []byte {
	b = append(b, '"')
	b = t.Truncate(time.Microsecond).AppendFormat(b, time.RFC3339Nano)
	return append(b, '"')
}

const hex = "0123456789abcdef"

// appendJSONString appends s as a JSON string, as encoding/json writes it: quotes, backslashes
// and control characters escaped, invalid UTF-8 replaced by U+FFFD.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

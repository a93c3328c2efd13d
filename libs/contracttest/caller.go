package contracttest

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// CheckReads fails t unless the caller's Go type of v, which it decodes o's answer of status
// into, reads only what the contract says is there (see ReadProblems).
func (o *Operation) CheckReads(t testing.TB, status int, v any) {
	t.Helper()
	for _, p := range ReadProblems(o.Response(t, status).Schema, reflect.TypeOf(v)) {
		t.Errorf("%s %d: %s", o.ID, status, p)
	}
}

// CheckSends fails t unless the caller's Go type of v, which it sends as o's request body,
// sends only what the contract describes and always sends what it requires (see
// SendProblems).
func (o *Operation) CheckSends(t testing.TB, v any) {
	t.Helper()
	if o.Request == nil {
		t.Fatalf("%s takes no body", o.ID)
	}
	for _, p := range SendProblems(o.Request, reflect.TypeOf(v)) {
		t.Errorf("%s request: %s", o.ID, p)
	}
}

// ReadProblems returns what keeps a caller from reading documents of schema into a value of
// type typ with encoding/json, one sentence per member (by its path): a member the caller
// reads that the schema does not describe; a JSON type the schema allows that the Go type
// cannot hold (null into anything but a pointer, slice, map or interface; a number into an
// integer; a string that is not a date-time into a time.Time); and a member the caller holds
// as always present (not a pointer, slice, map or interface) that the schema does not
// require. A type that decodes itself (json.Unmarshaler, json.RawMessage, any) takes
// whatever the schema says.
func ReadProblems(schema *jsonschema.Schema, typ reflect.Type) []string {
	var w walk
	w.read(schema, typ, "")
	return w.problems
}

// SendProblems returns what keeps a caller from sending values of type typ, marshalled with
// encoding/json, as documents of schema: a member it sends that the schema does not describe,
// a JSON type it can send that the schema refuses (null from a pointer without omitempty),
// and a member the schema requires that the Go type omits when empty or does not have.
func SendProblems(schema *jsonschema.Schema, typ reflect.Type) []string {
	var w walk
	w.send(schema, typ, "")
	return w.problems
}

type walk struct{ problems []string }

func (w *walk) addf(format string, args ...any) {
	w.problems = append(w.problems, fmt.Sprintf(format, args...))
}

var (
	timeType        = reflect.TypeFor[time.Time]()
	rawType         = reflect.TypeFor[json.RawMessage]()
	unmarshalerType = reflect.TypeFor[json.Unmarshaler]()
	marshalerType   = reflect.TypeFor[json.Marshaler]()
)

func (w *walk) read(s *jsonschema.Schema, typ reflect.Type, path string) {
	nullable := false
	for typ.Kind() == reflect.Pointer {
		typ, nullable = typ.Elem(), true
	}
	if typ == rawType || typ.Kind() == reflect.Interface || typ != timeType && reflect.PointerTo(typ).Implements(unmarshalerType) {
		return
	}
	parts := flatten(s)
	accepted := jsonTypes(typ)
	if nullable || typ.Kind() == reflect.Slice || typ.Kind() == reflect.Map {
		accepted = append(accepted, "null")
	}
	types, ok := declaredTypes(parts)
	if !ok {
		w.addf("%s: the contract does not say its type; the caller reads it as %s", name(path), typ)
		return
	}
	for _, jt := range types {
		if !slices.Contains(accepted, jt) {
			w.addf("%s may be %s in the contract; the caller reads it as %s", name(path), jt, typ)
		}
	}
	if typ == timeType {
		w.dateTime(parts, path)
		return
	}
	switch typ.Kind() {
	case reflect.Slice, reflect.Array:
		if items := itemsOf(parts); items != nil {
			w.read(items, typ.Elem(), path+"[]")
		}
	case reflect.Struct:
		for _, f := range fields(typ) {
			prop := property(parts, f.name)
			if prop == nil {
				w.addf("%s is not in the contract", join(path, f.name))
				continue
			}
			w.read(prop, f.typ, join(path, f.name))
			if alwaysPresent(f.typ) && !required(parts, f.name) {
				w.addf("%s is optional in the contract; the caller reads it as always present (%s)", join(path, f.name), f.typ)
			}
		}
	}
}

func (w *walk) send(s *jsonschema.Schema, typ reflect.Type, path string) {
	nullable := false
	for typ.Kind() == reflect.Pointer {
		typ, nullable = typ.Elem(), true
	}
	if typ == rawType || typ.Kind() == reflect.Interface || typ != timeType && reflect.PointerTo(typ).Implements(marshalerType) {
		return
	}
	parts := flatten(s)
	types, ok := declaredTypes(parts)
	if !ok {
		return // the contract takes any value here
	}
	sent := jsonTypes(typ)
	if nullable {
		sent = append(sent, "null")
	}
	if !slices.ContainsFunc(sent, func(jt string) bool { return slices.Contains(types, jt) }) ||
		nullable && !slices.Contains(types, "null") {
		w.addf("%s is %v in the contract; the caller sends %s", name(path), types, typ)
	}
	if typ == timeType {
		w.dateTime(parts, path)
		return
	}
	switch typ.Kind() {
	case reflect.Slice, reflect.Array:
		if items := itemsOf(parts); items != nil {
			w.send(items, typ.Elem(), path+"[]")
		}
	case reflect.Struct:
		var names []string
		for _, f := range fields(typ) {
			names = append(names, f.name)
			prop := property(parts, f.name)
			if prop == nil {
				w.addf("%s is not in the contract", join(path, f.name))
				continue
			}
			ft := f.typ
			if f.omitEmpty && ft.Kind() == reflect.Pointer {
				ft = ft.Elem() // never sent as null
			}
			w.send(prop, ft, join(path, f.name))
			if f.omitEmpty && required(parts, f.name) {
				w.addf("%s is required by the contract; the caller omits it when empty", join(path, f.name))
			}
		}
		for _, p := range parts {
			for _, r := range p.Required {
				if !slices.Contains(names, r) {
					w.addf("%s is required by the contract; the caller does not send it", join(path, r))
				}
			}
		}
	}
}

// dateTime reports a time.Time at path whose schema is not a date-time string.
func (w *walk) dateTime(parts []*jsonschema.Schema, path string) {
	for _, p := range parts {
		if p.Format != nil && p.Format.Name == "date-time" {
			return
		}
	}
	w.addf("%s is a time.Time of the caller; the contract does not say it is a date-time", name(path))
}

// jsonTypes returns the JSON types a value of typ (not a pointer) is read from and written as.
func jsonTypes(typ reflect.Type) []string {
	if typ == timeType {
		return []string{"string"}
	}
	switch typ.Kind() {
	case reflect.String:
		return []string{"string"}
	case reflect.Bool:
		return []string{"boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return []string{"integer"}
	case reflect.Float32, reflect.Float64:
		return []string{"integer", "number"}
	case reflect.Slice, reflect.Array:
		if typ.Elem().Kind() == reflect.Uint8 {
			return []string{"string"}
		}
		return []string{"array"}
	case reflect.Map, reflect.Struct:
		return []string{"object"}
	}
	return nil
}

// declaredTypes returns the JSON types the schemas allow together (those every one that
// names types allows); ok is false when none names any.
func declaredTypes(parts []*jsonschema.Schema) (types []string, ok bool) {
	for _, p := range parts {
		var these []string
		switch {
		case p.Types != nil:
			these = p.Types.ToStrings()
		case p.Const != nil:
			these = []string{typeOf(*p.Const)}
		case p.Enum != nil:
			for _, v := range p.Enum.Values {
				these = append(these, typeOf(v))
			}
		default:
			continue
		}
		if slices.Contains(these, "number") {
			these = append(these, "integer")
		}
		if !ok {
			types, ok = these, true
			continue
		}
		types = slices.DeleteFunc(types, func(t string) bool { return !slices.Contains(these, t) })
	}
	slices.Sort(types)
	return slices.Compact(types), ok
}

// typeOf returns the JSON type of a value of the schema library.
func typeOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "number"
}

func itemsOf(parts []*jsonschema.Schema) *jsonschema.Schema {
	for _, p := range parts {
		if p.Items2020 != nil {
			return p.Items2020
		}
	}
	return nil
}

func property(parts []*jsonschema.Schema, name string) *jsonschema.Schema {
	for _, p := range parts {
		if s, ok := p.Properties[name]; ok {
			return s
		}
	}
	return nil
}

func required(parts []*jsonschema.Schema, name string) bool {
	return slices.ContainsFunc(parts, func(p *jsonschema.Schema) bool { return slices.Contains(p.Required, name) })
}

// alwaysPresent reports whether a Go value of typ cannot tell a missing member from its zero.
func alwaysPresent(typ reflect.Type) bool {
	switch typ.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
		return false
	}
	return true
}

type field struct {
	name      string
	typ       reflect.Type
	omitEmpty bool
}

// fields returns the members encoding/json reads and writes for a struct type, the fields of
// embedded structs included.
func fields(typ reflect.Type) []field {
	var out []field
	for f := range typ.Fields() {
		tag := f.Tag.Get("json")
		if tag == "-" || !f.IsExported() && !f.Anonymous {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			out = append(out, fields(f.Type)...)
			continue
		}
		if name == "" {
			name = f.Name
		}
		out = append(out, field{name: name, typ: f.Type, omitEmpty: slices.Contains(strings.Split(opts, ","), "omitempty")})
	}
	return out
}

func name(path string) string {
	if path == "" {
		return "the body"
	}
	return path
}

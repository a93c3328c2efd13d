package contracttest

import (
	"encoding/json"
	"fmt"
)

// Document returns a body of the response built from the caller's value v, for a test double
// of the owner: the response's example with each member v has set to v's. Objects are merged
// member by member; each item of an array is laid over the example's items merged into one
// (of each member the first value that is not null, and every item of its arrays); a null
// over an array (a nil Go slice) is an empty array; what v does not have keeps the example's
// value. The body is checked against the response's schema, so a double serves only what the
// owner may answer.
func (r *Response) Document(v any) ([]byte, error) {
	if r.Schema == nil {
		return nil, fmt.Errorf("contracttest: the response has no body")
	}
	var example, value any
	if err := json.Unmarshal(r.Example, &example); err != nil {
		return nil, err
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(raw, &value); err != nil {
		return nil, err
	}
	body, err := json.Marshal(overlay(example, value))
	if err != nil {
		return nil, err
	}
	if err := validate(r.Schema, body); err != nil {
		return nil, fmt.Errorf("contracttest: the double's body breaks the contract: %w: %s", err, body)
	}
	return body, nil
}

func overlay(base, v any) any {
	switch b := base.(type) {
	case map[string]any:
		m, ok := v.(map[string]any)
		if !ok {
			return v
		}
		out := make(map[string]any, len(b)+len(m))
		for k, x := range b {
			out[k] = x
		}
		for k, x := range m {
			out[k] = overlay(b[k], x)
		}
		return out
	case []any:
		items, ok := v.([]any)
		if v == nil {
			return []any{}
		}
		if !ok {
			return v
		}
		var item any
		for _, x := range b {
			item = merge(item, x)
		}
		out := make([]any, len(items))
		for i, x := range items {
			out[i] = overlay(item, x)
		}
		return out
	}
	return v
}

// merge returns a and b merged as Document's template items are: objects member by member,
// arrays item after item, otherwise the first that is not null.
func merge(a, b any) any {
	switch x := a.(type) {
	case nil:
		return b
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			return a
		}
		out := make(map[string]any, len(x)+len(y))
		for k, v := range y {
			out[k] = v
		}
		for k, v := range x {
			out[k] = merge(v, y[k])
		}
		return out
	case []any:
		y, _ := b.([]any)
		return append(append([]any{}, x...), y...)
	}
	return a
}

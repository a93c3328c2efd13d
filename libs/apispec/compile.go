package apispec

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// jsonMedia is the only media type of the document.
const jsonMedia = "application/json"

// compileOperation compiles the request body schema, with the schema library and into checks,
// and the response body schemas of one operation.
func (v *Validator) compileOperation(c *jsonschema.Compiler, checks *requestChecks, op Operation) error {
	opPtr := "/paths/" + escapePointer(op.Path) + "/" + strings.ToLower(op.Method)
	raw, err := lookupPointer(spec.tree, opPtr)
	if err != nil {
		return err
	}
	opObj, _ := raw.(map[string]any)

	var rs requestSchema
	if rb, ok := opObj["requestBody"]; ok {
		body, ptr, err := resolveRef(spec.tree, rb, opPtr+"/requestBody")
		if err != nil {
			return err
		}
		if rs.schema, err = compileMedia(c, body, ptr); err != nil {
			return fmt.Errorf("request body: %w", err)
		}
		if rs.check, err = checks.compile(mediaSchema(ptr)); err != nil {
			return fmt.Errorf("request body: %w", err)
		}
		rs.required, _ = body["required"].(bool)
	}
	v.requests[op.ID] = rs

	set := responseSchemas{exact: map[int]*jsonschema.Schema{}, ranges: map[int]*jsonschema.Schema{}}
	responses, _ := opObj["responses"].(map[string]any)
	for code, r := range responses {
		resp, ptr, err := resolveRef(spec.tree, r, opPtr+"/responses/"+escapePointer(code))
		if err != nil {
			return err
		}
		schema, err := compileMedia(c, resp, ptr)
		if err != nil {
			return fmt.Errorf("response %s: %w", code, err)
		}
		if err := set.add(code, schema); err != nil {
			return err
		}
	}
	v.responses[op.ID] = set
	return nil
}

// add files a compiled response schema under its response key.
func (r responseSchemas) add(code string, schema *jsonschema.Schema) error {
	switch {
	case code == "default":
		return errors.New("default responses are not used by this document")
	case len(code) == 3 && strings.HasSuffix(code, "XX") && code[0] >= '1' && code[0] <= '5':
		r.ranges[int(code[0]-'0')] = schema
	default:
		n, err := strconv.Atoi(code)
		if err != nil {
			return fmt.Errorf("response key %q is not a status code", code)
		}
		r.exact[n] = schema
	}
	return nil
}

// compileMedia compiles the application/json schema of a request body or a
// response object found at ptr.
func compileMedia(c *jsonschema.Compiler, obj map[string]any, ptr string) (*jsonschema.Schema, error) {
	content, _ := obj["content"].(map[string]any)
	media, _ := content[jsonMedia].(map[string]any)
	if _, ok := media["schema"]; !ok {
		return nil, fmt.Errorf("no %s schema at %s", jsonMedia, ptr)
	}
	return c.Compile(documentURL + "#" + mediaSchema(ptr))
}

// mediaSchema is the JSON pointer of the application/json schema of the request body or
// response object at ptr.
func mediaSchema(ptr string) string {
	return ptr + "/content/" + escapePointer(jsonMedia) + "/schema"
}

// resolveRef follows local $ref links of OpenAPI objects (request bodies,
// responses) and returns the object with its JSON pointer.
func resolveRef(tree map[string]any, node any, ptr string) (map[string]any, string, error) {
	for range 8 {
		obj, ok := node.(map[string]any)
		if !ok {
			return nil, "", fmt.Errorf("%s is not an object", ptr)
		}
		ref, ok := obj["$ref"].(string)
		if !ok {
			return obj, ptr, nil
		}
		target, found := strings.CutPrefix(ref, "#")
		if !found {
			return nil, "", fmt.Errorf("%s: only local references are supported, got %q", ptr, ref)
		}
		next, err := lookupPointer(tree, target)
		if err != nil {
			return nil, "", fmt.Errorf("%s: %w", ptr, err)
		}
		node, ptr = next, target
	}
	return nil, "", fmt.Errorf("%s: reference chain too long", ptr)
}

// lookupPointer returns the value at a JSON pointer ("/a/b~1c") of tree.
func lookupPointer(tree any, ptr string) (any, error) {
	if ptr == "" {
		return tree, nil
	}
	if !strings.HasPrefix(ptr, "/") {
		return nil, fmt.Errorf("invalid JSON pointer %q", ptr)
	}
	cur := tree
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = unescapePointer(tok)
		switch node := cur.(type) {
		case map[string]any:
			next, ok := node[tok]
			if !ok {
				return nil, fmt.Errorf("JSON pointer %q does not resolve", ptr)
			}
			cur = next
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(node) {
				return nil, fmt.Errorf("JSON pointer %q does not resolve", ptr)
			}
			cur = node[i]
		default:
			return nil, fmt.Errorf("JSON pointer %q does not resolve", ptr)
		}
	}
	return cur, nil
}

// escapePointer escapes one JSON pointer token.
func escapePointer(tok string) string {
	return strings.ReplaceAll(strings.ReplaceAll(tok, "~", "~0"), "/", "~1")
}

// unescapePointer reverses escapePointer.
func unescapePointer(tok string) string {
	return strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
}

// decodeJSON decodes one JSON value, keeping numbers as json.Number so that
// large integers are compared exactly.
func decodeJSON(b []byte) (any, error) {
	return jsonschema.UnmarshalJSON(bytes.NewReader(b))
}

package contracttest

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/goccy/go-yaml"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// API is the internal HTTP contract of one service: an OpenAPI 3.1 document whose schemas are
// JSON Schema 2020-12. Each operation has an operationId; each request body and each response
// that has a body has a JSON schema and an example of it. A response without content is an
// error answer in the standard error body of libs/httpserver.
type API struct {
	doc  map[string]any
	ops  []*Operation
	mu   sync.Mutex
	seen map[string]bool // operations answered with a documented body
}

// Operation is one operation of the contract.
type Operation struct {
	ID     string
	Method string
	// Path is the path template ("/internal/events/{eventId}").
	Path           string
	Request        *jsonschema.Schema // nil: no body
	RequestExample []byte
	Responses      map[int]*Response
}

// Response is a documented answer of an operation; Schema is nil for an error answer.
type Response struct {
	Schema  *jsonschema.Schema
	Example []byte
}

// documentURL is where a document is registered with the compiler; it is never fetched.
const documentURL = "https://podium.invalid/internal.openapi.json"

// Load parses an internal contract and fails t when it is broken: not OpenAPI 3.1 of JSON
// Schema 2020-12, an operation without an id, a body without a schema or an example, or an
// example its schema refuses.
func Load(t testing.TB, doc []byte) *API {
	t.Helper()
	a, err := Parse(doc)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// MustParse is Parse for a package variable: it panics on a broken document, which the
// owner's tests (Load) rule out.
func MustParse(doc []byte) *API {
	a, err := Parse(doc)
	if err != nil {
		panic(err)
	}
	return a
}

// Parse reads an internal contract written in YAML (or JSON).
func Parse(doc []byte) (*API, error) {
	raw, err := yaml.YAMLToJSON(doc)
	if err != nil {
		return nil, fmt.Errorf("contract: %w", err)
	}
	tree, err := ReadJSON(raw)
	if err != nil {
		return nil, fmt.Errorf("contract: %w", err)
	}
	m, ok := tree.(map[string]any)
	if !ok {
		return nil, errors.New("contract: the document is not an object")
	}
	return compile(m, true)
}

// compile reads the operations of doc; examples says whether to check the examples.
func compile(doc map[string]any, examples bool) (*API, error) {
	if v, _ := doc["openapi"].(string); !strings.HasPrefix(v, "3.1.") {
		return nil, fmt.Errorf("contract: openapi is %v, want 3.1.x", doc["openapi"])
	}
	if d, ok := doc["jsonSchemaDialect"]; ok && d != Draft {
		return nil, fmt.Errorf("contract: jsonSchemaDialect is %v, want %s", d, Draft)
	}
	c := NewCompiler()
	if err := c.AddResource(documentURL, doc); err != nil {
		return nil, fmt.Errorf("contract: %w", err)
	}
	a := &API{doc: doc, seen: map[string]bool{}}
	paths, _ := doc["paths"].(map[string]any)
	for _, path := range sortedKeys(paths) {
		item, _ := paths[path].(map[string]any)
		for _, method := range sortedKeys(item) {
			op, ok := item[method].(map[string]any)
			if !ok || !slices.Contains([]string{"get", "put", "post", "delete", "patch"}, method) {
				continue
			}
			o, err := operation(c, doc, path, method, op, examples)
			if err != nil {
				return nil, fmt.Errorf("contract: %s %s: %w", strings.ToUpper(method), path, err)
			}
			a.ops = append(a.ops, o)
		}
	}
	if len(a.ops) == 0 {
		return nil, errors.New("contract: no operations")
	}
	return a, nil
}

func operation(c *jsonschema.Compiler, doc map[string]any, path, method string, op map[string]any, examples bool) (*Operation, error) {
	o := &Operation{Method: strings.ToUpper(method), Path: path, Responses: map[int]*Response{}}
	o.ID, _ = op["operationId"].(string)
	if o.ID == "" {
		return nil, errors.New("no operationId")
	}
	at := "#/paths/" + pointerEscape(path) + "/" + method
	if body, ok := op["requestBody"].(map[string]any); ok {
		body, ptr, err := resolve(doc, body, at+"/requestBody")
		if err != nil {
			return nil, fmt.Errorf("request body: %w", err)
		}
		s, example, err := media(c, body, ptr, examples)
		if err != nil {
			return nil, fmt.Errorf("request body: %w", err)
		}
		if s == nil {
			return nil, errors.New("request body without application/json content")
		}
		o.Request, o.RequestExample = s, example
	}
	responses, _ := op["responses"].(map[string]any)
	for code, r := range responses {
		status, err := strconv.Atoi(code)
		if err != nil || http.StatusText(status) == "" {
			return nil, fmt.Errorf("response %q is not a status code", code)
		}
		resp, ptr, err := resolve(doc, r, at+"/responses/"+code)
		if err != nil {
			return nil, fmt.Errorf("response %s: %w", code, err)
		}
		s, example, err := media(c, resp, ptr, examples)
		if err != nil {
			return nil, fmt.Errorf("response %s: %w", code, err)
		}
		o.Responses[status] = &Response{Schema: s, Example: example}
	}
	if len(o.Responses) == 0 {
		return nil, errors.New("no responses")
	}
	return o, nil
}

// media compiles the application/json schema of a request body or response object at
// pointer `at` and, with examples, checks its example; both are nil when it has no content.
func media(c *jsonschema.Compiler, obj map[string]any, at string, examples bool) (*jsonschema.Schema, []byte, error) {
	content, _ := obj["content"].(map[string]any)
	if content == nil {
		return nil, nil, nil
	}
	m, ok := content["application/json"].(map[string]any)
	if !ok || m["schema"] == nil {
		return nil, nil, errors.New("content is not application/json with a schema")
	}
	s, err := c.Compile(documentURL + at + "/content/application~1json/schema")
	if err != nil {
		return nil, nil, err
	}
	example, ok := m["example"]
	if !ok {
		return nil, nil, errors.New("no example")
	}
	raw, err := json.Marshal(example)
	if err != nil {
		return nil, nil, err
	}
	if err := validate(s, raw); err != nil && examples {
		return nil, nil, fmt.Errorf("example: %w", err)
	}
	return s, raw, nil
}

// Operations returns the operations, by path then method.
func (a *API) Operations() []*Operation { return a.ops }

// Operation returns the operation with id; it fails t when there is none.
func (a *API) Operation(t testing.TB, id string) *Operation {
	t.Helper()
	for _, o := range a.ops {
		if o.ID == id {
			return o
		}
	}
	t.Fatalf("the contract has no operation %s", id)
	return nil
}

// Match returns the operation that serves method on path (a path without its query), the
// one with the fewest parameters when several templates match.
func (a *API) Match(method, path string) (*Operation, bool) {
	segs := strings.Split(path, "/")
	var best *Operation
	bestParams := 0
	for _, o := range a.ops {
		if o.Method != method {
			continue
		}
		tmpl := strings.Split(o.Path, "/")
		if len(tmpl) != len(segs) {
			continue
		}
		params, ok := 0, true
		for i, s := range tmpl {
			switch {
			case strings.HasPrefix(s, "{"):
				params++
				ok = ok && segs[i] != ""
			default:
				ok = ok && s == segs[i]
			}
		}
		if ok && (best == nil || params < bestParams) {
			best, bestParams = o, params
		}
	}
	return best, best != nil
}

// Response returns the documented response of o for status; it fails t when there is none
// or it has no body.
func (o *Operation) Response(t testing.TB, status int) *Response {
	t.Helper()
	r, ok := o.Responses[status]
	if !ok || r.Schema == nil {
		t.Fatalf("%s documents no body for %d", o.ID, status)
	}
	return r
}

// CheckRequest returns what is wrong with a request body for o.
func (o *Operation) CheckRequest(body []byte) error {
	if o.Request == nil {
		if len(body) > 0 {
			return fmt.Errorf("%s takes no body", o.ID)
		}
		return nil
	}
	if err := validate(o.Request, body); err != nil {
		return fmt.Errorf("%s request %s: %w", o.ID, body, err)
	}
	return nil
}

// CheckAnswer returns what is wrong with an answer of o: a status it does not document, or a
// body its schema refuses or that carries members it does not describe.
func (o *Operation) CheckAnswer(status int, body []byte) error {
	r, ok := o.Responses[status]
	switch {
	case !ok:
		return fmt.Errorf("%s answered %d, a status its contract does not give: %s", o.ID, status, body)
	case r.Schema == nil:
		return nil
	}
	if err := validate(r.Schema, body); err != nil {
		return fmt.Errorf("%s answered %d: %w: %s", o.ID, status, err, body)
	}
	return nil
}

// resolve follows the $ref of a request body or response object at pointer `at` to a
// component of doc; it returns the object and its pointer.
func resolve(doc map[string]any, obj any, at string) (map[string]any, string, error) {
	m, ok := obj.(map[string]any)
	if !ok {
		return nil, "", errors.New("not an object")
	}
	ref, ok := m["$ref"].(string)
	if !ok {
		return m, at, nil
	}
	names, ok := strings.CutPrefix(ref, "#/components/")
	parts := strings.Split(names, "/")
	if !ok || len(parts) != 2 {
		return nil, "", fmt.Errorf("$ref %s is not a component of the document", ref)
	}
	components, _ := doc["components"].(map[string]any)
	kind, _ := components[parts[0]].(map[string]any)
	target, ok := kind[parts[1]].(map[string]any)
	if !ok {
		return nil, "", fmt.Errorf("$ref %s names nothing", ref)
	}
	return target, ref, nil
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func pointerEscape(s string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}

// Edit returns a copy of the contract changed by edit, which gets the document as decoded
// JSON, its examples left unchecked: a test shows with it what a change of the owner's
// contract does to a caller.
func (a *API) Edit(t testing.TB, edit func(doc map[string]any)) *API {
	t.Helper()
	raw, err := json.Marshal(a.doc)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := ReadJSON(raw)
	if err != nil {
		t.Fatal(err)
	}
	doc := tree.(map[string]any)
	edit(doc)
	b, err := compile(doc, false) // the examples follow the edit or not: the edit is the point
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// At returns the object at the path of member names in doc; it panics when there is none.
func At(doc map[string]any, names ...string) map[string]any {
	for _, n := range names {
		next, ok := doc[n].(map[string]any)
		if !ok {
			panic(fmt.Sprintf("contracttest: no object %q in %v", n, names))
		}
		doc = next
	}
	return doc
}

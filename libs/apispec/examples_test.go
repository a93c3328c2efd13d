package apispec

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestEveryExampleMatchesItsSchema: every request body and every response of every operation
// has examples, and each is accepted by the validator the gateway runs on that operation (an
// error example by the schema of its status, its statusCode that status).
func TestEveryExampleMatchesItsSchema(t *testing.T) {
	v, err := NewValidator()
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, op := range Operations() {
		item := spec.tree["paths"].(map[string]any)[op.Path].(map[string]any)
		node := item[strings.ToLower(op.Method)].(map[string]any)
		ptr := "/paths/" + escapePointer(op.Path) + "/" + strings.ToLower(op.Method)
		if body, ok := node["requestBody"]; ok {
			for name, ex := range examples(t, body, ptr+"/requestBody") {
				seen++
				if err := v.ValidateRequest(op.ID, ex); err != nil {
					t.Errorf("%s request example %q: %v", op.ID, name, err)
				}
			}
		}
		for code, res := range node["responses"].(map[string]any) {
			for name, ex := range examples(t, res, ptr+"/responses/"+code) {
				seen++
				status := statusOf(t, code, ex)
				if err := v.ValidateResponse(op.ID, status, ex); err != nil {
					t.Errorf("%s %s example %q: %v", op.ID, code, name, err)
				}
			}
		}
	}
	if seen < 3*len(Operations()) {
		t.Fatalf("only %d examples seen; the walk is broken", seen)
	}
}

// TestErrorExamplesCarryTheirCode: every error example names its status's reason phrase, a
// snake_case code, and lists problems exactly when it is a 400 or a 422.
func TestErrorExamplesCarryTheirCode(t *testing.T) {
	snake := func(s string) bool {
		return s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyz_") == "" && !strings.HasPrefix(s, "_")
	}
	for name, res := range spec.tree["components"].(map[string]any)["responses"].(map[string]any) {
		if _, ok := res.(map[string]any)["content"]; !ok {
			continue // a receiver's answer to a webhook, which the document describes without a body
		}
		for exName, raw := range examples(t, res, "/components/responses/"+name) {
			var body struct {
				StatusCode int              `json:"statusCode"`
				Code       string           `json:"code"`
				Problems   []map[string]any `json:"problems"`
			}
			if err := json.Unmarshal(raw, &body); err != nil {
				t.Fatal(err)
			}
			if body.StatusCode < 400 {
				continue
			}
			if !snake(body.Code) {
				t.Errorf("%s example %q: code %q is not snake_case", name, exName, body.Code)
			}
			wantProblems := body.StatusCode == 400 || body.StatusCode == 422
			if (len(body.Problems) > 0) != wantProblems {
				t.Errorf("%s example %q (%d): %d problems", name, exName, body.StatusCode, len(body.Problems))
			}
		}
	}
}

// examples returns the JSON examples of the application/json content of a request body or
// response (following its $ref), failing the test when there are none.
func examples(t *testing.T, node any, ptr string) map[string][]byte {
	t.Helper()
	obj, at, err := resolveRef(spec.tree, node, ptr)
	if err != nil {
		t.Fatal(err)
	}
	media, _ := obj["content"].(map[string]any)[jsonMedia].(map[string]any)
	named, _ := media["examples"].(map[string]any)
	if len(named) == 0 {
		t.Errorf("%s (%s) has no examples", ptr, at)
	}
	out := map[string][]byte{}
	for _, name := range slices.Sorted(maps.Keys(named)) {
		ex, _, err := resolveRef(spec.tree, named[name], at+"/content/examples/"+name)
		if err != nil {
			t.Fatal(err)
		}
		raw, err := json.Marshal(ex["value"])
		if err != nil || ex["value"] == nil {
			t.Fatalf("%s example %q has no value: %v", at, name, err)
		}
		out[name] = raw
	}
	return out
}

// statusOf is the status an example answers: its response code, or for a range (5XX) the
// example's own statusCode.
func statusOf(t *testing.T, code string, ex []byte) int {
	t.Helper()
	if n, err := strconv.Atoi(code); err == nil {
		return n
	}
	var body struct {
		StatusCode int `json:"statusCode"`
	}
	if err := json.Unmarshal(ex, &body); err != nil || body.StatusCode/100 != int(code[0]-'0') {
		t.Fatalf("%s example %s has no statusCode in its range", code, ex)
	}
	return body.StatusCode
}

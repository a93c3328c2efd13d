package deploycheck

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"sigs.k8s.io/yaml"
)

// kubeconform reads one JSON schema per kind, at a path of its template; these are the schemas'
// names in the directory writeSchemas fills.
const schemaTemplate = "{{ .ResourceKind }}{{ .KindSuffix }}.json"

// swaggerOf is the path of the OpenAPI v2 document of Kubernetes version (v1.34.4) in the Go
// module cache: k8s.io/kubernetes carries it in api/openapi-spec, and the module is downloaded
// already when the tools were built from it.
func swaggerOf(ctx context.Context, version string) (string, error) {
	cmd := exec.CommandContext(ctx, "go", "mod", "download", "-json", "k8s.io/kubernetes@"+version) //nolint:gosec // the version the tools were built at
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	cmd.Dir = os.TempDir()
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go mod download k8s.io/kubernetes@%s: %w", version, err)
	}
	var m struct{ Dir string }
	if err := json.Unmarshal(out, &m); err != nil || m.Dir == "" {
		return "", fmt.Errorf("go mod download k8s.io/kubernetes@%s: no directory in %q", version, out)
	}
	return filepath.Join(m.Dir, "api", "openapi-spec", "swagger.json"), nil
}

// writeSchemas writes into dir a standalone, strict JSON schema for every kind of the Kubernetes
// OpenAPI v2 document swagger and of the CRDs in crdYAML, named as kubeconform looks them up
// (schemaTemplate). Strict: an object schema with properties refuses any other field, as the API
// server's strict field validation does. It returns the number of schemas written.
func writeSchemas(swagger io.Reader, crdYAML []byte, dir string) (int, error) {
	var doc struct {
		Definitions map[string]any `json:"definitions"`
	}
	if err := json.NewDecoder(swagger).Decode(&doc); err != nil {
		return 0, fmt.Errorf("read the OpenAPI document: %w", err)
	}
	n := 0
	for name, def := range doc.Definitions {
		gvks, _ := def.(map[string]any)["x-kubernetes-group-version-kind"].([]any)
		for _, g := range gvks {
			gvk, _ := g.(map[string]any)
			group, _ := gvk["group"].(string)
			version, _ := gvk["version"].(string)
			kind, _ := gvk["kind"].(string)
			schema := strictCopy(def).(map[string]any)
			defs := map[string]any{}
			reachable(doc.Definitions, def, defs)
			for k, v := range defs {
				defs[k] = strictCopy(v)
			}
			schema["definitions"] = defs
			if err := writeSchema(dir, group, version, kind, schema); err != nil {
				return n, fmt.Errorf("%s: %w", name, err)
			}
			n++
		}
	}
	crds, err := crdSchemas(crdYAML)
	if err != nil {
		return n, err
	}
	for _, c := range crds {
		if err := writeSchema(dir, c.group, c.version, c.kind, c.schema); err != nil {
			return n, err
		}
		n++
	}
	if n == 0 {
		return 0, errors.New("the OpenAPI document defines no kind")
	}
	return n, nil
}

// writeSchema names a kind's schema as kubeconform's KindSuffix does: the first label of the
// group (none for the core group) and the version.
func writeSchema(dir, group, version, kind string, schema map[string]any) error {
	suffix := "-" + version
	if group != "" {
		suffix = "-" + strings.ToLower(strings.Split(group, ".")[0]) + suffix
	}
	b, err := json.Marshal(schema)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, strings.ToLower(kind)+suffix+".json"), b, 0o600)
}

// reachable adds to into every definition that v refers to, directly or not.
func reachable(defs map[string]any, v any, into map[string]any) {
	switch t := v.(type) {
	case map[string]any:
		if ref, ok := t["$ref"].(string); ok {
			name := strings.TrimPrefix(ref, "#/definitions/")
			if _, seen := into[name]; !seen {
				into[name] = defs[name]
				reachable(defs, defs[name], into)
			}
		}
		for _, e := range t {
			reachable(defs, e, into)
		}
	case []any:
		for _, e := range t {
			reachable(defs, e, into)
		}
	}
}

// strictCopy copies a schema, closing every object schema that lists its properties
// (additionalProperties false) unless it keeps unknown fields on purpose, and spelling out the
// two shapes the API server accepts beyond their declared type: an int-or-string, and a Quantity
// (a string, or a number as YAML writes `cpu: 1`).
func strictCopy(v any) any {
	switch t := v.(type) {
	case map[string]any:
		if t["format"] == "int-or-string" || t["x-kubernetes-int-or-string"] == true {
			return map[string]any{"oneOf": []any{map[string]any{"type": "string"}, map[string]any{"type": "integer"}}}
		}
		if d, _ := t["description"].(string); t["type"] == "string" && strings.HasPrefix(d, "Quantity is a fixed-point representation") {
			return map[string]any{"oneOf": []any{map[string]any{"type": "string"}, map[string]any{"type": "number"}}}
		}
		out := make(map[string]any, len(t)+1)
		for k, e := range t {
			if k == "properties" {
				props := map[string]any{}
				for p, s := range e.(map[string]any) {
					props[p] = strictCopy(s)
				}
				out[k] = props
				continue
			}
			out[k] = strictCopy(e)
		}
		_, open := t["additionalProperties"]
		if _, listed := t["properties"]; listed && !open && t["x-kubernetes-preserve-unknown-fields"] != true {
			out["additionalProperties"] = false
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = strictCopy(e)
		}
		return out
	}
	return v
}

type crdSchema struct {
	group, version, kind string
	schema               map[string]any
}

// crdSchemas is the strict schema of each served version of each CRD in crdYAML, with the
// apiVersion, kind and metadata every object has (a CRD's schema leaves them out).
func crdSchemas(crdYAML []byte) ([]crdSchema, error) {
	var out []crdSchema
	for _, doc := range bytes.Split(crdYAML, []byte("\n---")) {
		var crd struct {
			Spec struct {
				Group string `json:"group"`
				Names struct {
					Kind string `json:"kind"`
				} `json:"names"`
				Versions []struct {
					Name   string `json:"name"`
					Served bool   `json:"served"`
					Schema struct {
						OpenAPIV3Schema map[string]any `json:"openAPIV3Schema"`
					} `json:"schema"`
				} `json:"versions"`
			} `json:"spec"`
		}
		if err := yaml.Unmarshal(doc, &crd); err != nil {
			return nil, fmt.Errorf("read the CRDs: %w", err)
		}
		for _, v := range crd.Spec.Versions {
			if !v.Served || v.Schema.OpenAPIV3Schema == nil {
				continue
			}
			s := strictCopy(v.Schema.OpenAPIV3Schema).(map[string]any)
			props, _ := s["properties"].(map[string]any)
			if props == nil {
				props = map[string]any{}
				s["properties"] = props
				s["additionalProperties"] = false
			}
			for _, p := range []string{"apiVersion", "kind"} {
				props[p] = map[string]any{"type": "string"}
			}
			props["metadata"] = map[string]any{"type": "object"}
			out = append(out, crdSchema{crd.Spec.Group, v.Name, crd.Spec.Names.Kind, s})
		}
	}
	if len(out) == 0 {
		return nil, errors.New("the CRDs define no served schema")
	}
	return out, nil
}

package api_test

import (
	"encoding/json"

	"github.com/goccy/go-yaml"
)

// yamlToJSON converts a YAML document to JSON, for tests that send an event file as JSON.
func yamlToJSON(b []byte) ([]byte, error) {
	var v any
	if err := yaml.Unmarshal(b, &v); err != nil {
		return nil, err
	}
	return json.Marshal(v)
}

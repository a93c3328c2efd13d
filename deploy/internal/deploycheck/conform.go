package deploycheck

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Conform is kubeconform's verdict on the rendered objects, against the schemas of the pinned
// Kubernetes version and of the CRDs.
type Conform struct {
	Schemas int      // schemas written for it
	Valid   int      // objects that conform
	Refused []string // "<Kind>/<name>: <kubeconform's message>", invalid or with no schema
}

// Conformance renders the kustomization manifests and has kubeconform (in tools) validate it
// against the schemas of Kubernetes version and of the CRDs: the part of the check that needs no
// API server, quick enough for every test run.
func Conformance(ctx context.Context, tools, version, manifests string) (Conform, error) {
	objs, err := render(manifests)
	if err != nil {
		return Conform{}, err
	}
	dir, err := os.MkdirTemp("", "kubeconform-")
	if err != nil {
		return Conform{}, err
	}
	defer func() { _ = os.RemoveAll(dir) }()
	c, err := conform(ctx, tools, version, dir, objs)
	if err == nil && c.Valid+len(c.Refused) != len(objs) {
		err = fmt.Errorf("kubeconform judged %d of %d objects", c.Valid+len(c.Refused), len(objs))
	}
	return c, err
}

// conform writes the schemas of version (the API server's, from its OpenAPI document) and of
// the CRDs into dir and has kubeconform validate the rendered objects against them, strictly
// and offline.
func conform(ctx context.Context, tools, version, dir string, objs []object) (Conform, error) {
	var c Conform
	swagger, err := swaggerOf(ctx, version)
	if err != nil {
		return c, err
	}
	f, err := os.Open(swagger) //nolint:gosec // the module cache's copy of the pinned Kubernetes
	if err != nil {
		return c, err
	}
	defer func() { _ = f.Close() }()
	schemas := filepath.Join(dir, "schemas")
	if err := os.MkdirAll(schemas, 0o700); err != nil {
		return c, err
	}
	if c.Schemas, err = writeSchemas(f, crds, schemas); err != nil {
		return c, err
	}

	var stream bytes.Buffer
	for _, o := range objs {
		stream.WriteString("---\n")
		stream.Write(o.yaml)
	}
	cmd := exec.CommandContext(ctx, filepath.Join(tools, "kubeconform"), //nolint:gosec // bin/tools' kubeconform
		"-strict", "-output", "json", "-verbose",
		"-kubernetes-version", strings.TrimPrefix(version, "v"),
		"-schema-location", filepath.Join(schemas, schemaTemplate), "-")
	cmd.Stdin = &stream
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, runErr := cmd.Output() // exits 1 when an object is refused; the JSON says which
	var report struct {
		Resources []struct {
			Kind, Name, Status, Msg string
		}
	}
	if err := json.Unmarshal(out, &report); err != nil {
		return c, fmt.Errorf("kubeconform (%w) %s: %w", runErr, stderr.String(), err)
	}
	for _, r := range report.Resources {
		if r.Status == "statusValid" {
			c.Valid++
			continue
		}
		c.Refused = append(c.Refused, fmt.Sprintf("%s/%s: %s %s", r.Kind, r.Name, strings.TrimPrefix(r.Status, "status"), oneLine(r.Msg)))
	}
	return c, nil
}

// Command generate renders the API's OpenAPI 3.0.3 document (libs/apispec) for the Go client
// and runs the oapi-codegen pinned by the client's go.mod on it. Run it in clients/go, as
// `go generate` does: it writes internal/generate/openapi-3.0.json and podium.gen.go.
package main

import (
	"context"
	"fmt"
	"os"
)

// Paths relative to the client module's directory.
const (
	docPath  = "internal/generate/openapi-3.0.json"
	codePath = "podium.gen.go"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "generate:", err)
		os.Exit(1)
	}
}

func run() error {
	doc, err := Render()
	if err != nil {
		return err
	}
	if err := os.WriteFile(docPath, doc, 0o644); err != nil { //nolint:gosec // a source file of the repository
		return err
	}
	return Codegen(context.Background(), ".", docPath, codePath)
}

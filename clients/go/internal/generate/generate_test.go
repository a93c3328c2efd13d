package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// The committed document and code are what generating now writes: the client never drifts
// from the contract. On a failure, run `go generate` in clients/go (or `make clients`).

func TestTheDocumentIsCurrent(t *testing.T) {
	want, err := Render()
	if err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(filepath.Join("..", "..", docPath)); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("%s differs from the rendered document (%v): run go generate in clients/go", docPath, err)
	}
}

func TestTheCodeIsCurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("runs oapi-codegen")
	}
	out := filepath.Join(t.TempDir(), "podium.gen.go")
	if err := Codegen(t.Context(), filepath.Join("..", ".."), docPath, out); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(filepath.Join("..", "..", codePath)); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("%s differs from oapi-codegen's code for %s (%v): run go generate in clients/go", codePath, docPath, err)
	}
}

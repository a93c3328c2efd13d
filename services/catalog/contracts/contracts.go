// Package contracts holds the catalog's internal HTTP contract, internal.openapi.yaml: the
// operations registration and checkout call, with a JSON Schema and an example of every body
// (docs/adr/0012-internal-contracts.md). The catalog's API tests check its answers against it;
// its callers' tests check the types they read and their test doubles against it.
package contracts

import _ "embed"

// Internal is the OpenAPI 3.1 document of the internal API.
//
//go:embed internal.openapi.yaml
var Internal []byte

// Package contracts holds auth's internal HTTP contract, internal.openapi.yaml: the key and
// origin look-ups the gateway calls and the contacts the webhooks service reads, with a JSON
// Schema and an example of every body (docs/adr/0012-internal-contracts.md). Auth's API tests
// check its answers against it; its callers' tests check the types they read and send
// against it.
package contracts

import _ "embed"

// Internal is the OpenAPI 3.1 document of the internal API.
//
//go:embed internal.openapi.yaml
var Internal []byte

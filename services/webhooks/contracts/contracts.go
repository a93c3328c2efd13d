// Package contracts holds the webhooks service's internal HTTP contract, internal.openapi.yaml:
// the endpoint and delivery-log operations the console calls through auth, with a JSON Schema
// and an example of every body (docs/adr/0012-internal-contracts.md). The service's API tests
// check its answers against it; auth's tests check what it reads and its double against it.
package contracts

import _ "embed"

// Internal is the OpenAPI 3.1 document of the internal API.
//
//go:embed internal.openapi.yaml
var Internal []byte

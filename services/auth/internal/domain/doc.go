// Package domain holds the auth service's types and rules: organizers, API keys, scopes,
// allowed origins, identifiers, the events published about keys and the errors the other
// layers translate. It imports no HTTP, database or broker package.
package domain

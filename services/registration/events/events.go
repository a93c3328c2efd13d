// Package events holds the contracts of the events registration publishes, per topic: the JSON
// Schema of each event type, <topic>/<type>.schema.json, and an example of it,
// <topic>/examples/<type>.json (docs/adr/0005-messaging.md). The producer's tests check every
// event it builds against its schema; its consumers' tests decode the examples.
package events

import "embed"

// Files holds the schemas and examples.
//
//go:embed registration.orders.v1 registration.places.v1 registration.registrations.v1 registration.waitlist.v1
var Files embed.FS

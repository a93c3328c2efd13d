// Package domain is the webhooks service's model: the event types organizers subscribe to, the
// mapping of the producers' Kafka events onto them, the message body receivers get, endpoint
// validation, and the sealing of the signing secrets at rest.
package domain

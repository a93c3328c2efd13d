// Package webhooks is the webhooks service: organizers' endpoints and their signing secrets,
// and the signed deliveries (Standard Webhooks) made from the producers' Kafka events.
package webhooks

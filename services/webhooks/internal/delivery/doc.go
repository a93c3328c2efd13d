// Package delivery sends the webhooks: Standard Webhooks signing, an HTTP client that refuses
// to connect where receivers must not be (SSRF guard), the retry schedule and the decision on
// each attempt's outcome, and the dispatcher that claims due deliveries, sends them with
// bounded concurrency per endpoint and records what happened.
package delivery

// Package domain holds the checkout service's types and rules: the event as the catalog
// describes it, browser visibility, pricing (supplements, promocodes, fees, rounding), the
// purchase rules of a checkout session (terms, waivers, legal signature, deferred team
// completion), the checkout state machine, the payment events it publishes and the errors the
// other layers translate. It imports no HTTP, database, broker or Stripe package.
package domain

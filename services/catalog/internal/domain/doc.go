// Package domain holds the catalog's types and rules: events and what an organizer sells in
// them (categories with price tiers, form fields, versioned waivers, sponsors, supplements,
// promocodes, fees), the validation of authored events, the merge of a new import into the
// stored event (stable ids, waiver versions), what each surface may see, the active price
// rule, the places projection and the messages the catalog publishes. It imports no HTTP,
// database or broker package.
package domain

// Package domain holds the registration service's types and rules: orders, registrations,
// athletes and their tickets, eligibility for a category, custom fields, supplements, the
// update and delete rules, search filters and the event schemas. It imports no transport or
// storage package.
package domain

package domain

import (
	"slices"
	"strings"

	"github.com/podiumhq/podium/libs/fault"
)

// Scopes a secret key can be granted, one per group of organizer operations.
const (
	ScopeEventsRead         = "events:read"
	ScopePricingRead        = "pricing:read"
	ScopeRegistrationsRead  = "registrations:read"
	ScopeRegistrationsWrite = "registrations:write"
	// ScopeWebhooksWrite manages the organizer's webhook endpoints and their deliveries.
	ScopeWebhooksWrite = "webhooks:write"
	// ScopeCheckInsWrite checks tickets in at the door and undoes check-ins, and nothing else:
	// a door scanner's key holds it alone.
	ScopeCheckInsWrite = "checkins:write"
	// ScopeRefundsWrite returns payments (refunds) and reads the refunds made; it implies no
	// other scope, and no other scope implies it.
	ScopeRefundsWrite = "refunds:write"
)

// AllScopes lists every scope in the order they are documented.
var AllScopes = []string{ScopeEventsRead, ScopePricingRead, ScopeRegistrationsRead, ScopeRegistrationsWrite, ScopeWebhooksWrite,
	ScopeCheckInsWrite, ScopeRefundsWrite}

// ValidScope reports whether s is a known scope.
func ValidScope(s string) bool { return slices.Contains(AllScopes, s) }

// validateScopes checks the scopes of a secret key: at least one, each known. Duplicates are
// dropped; the result keeps the first occurrence of each scope in the given order.
func validateScopes(scopes []string, p *fault.Problems) []string {
	if len(scopes) == 0 {
		p.Add("scopes must list at least one scope for a secret key")
		return nil
	}
	out := make([]string, 0, len(scopes))
	for i, s := range scopes {
		if !ValidScope(s) {
			p.Addf("scopes[%d] must be one of %s", i, strings.Join(AllScopes, ", "))
			continue
		}
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

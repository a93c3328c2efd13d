package regtest

import (
	"testing"

	"github.com/podiumhq/podium/libs/identity"
)

// Scanner is the token of a secret key of org with the checkins:write scope only, a door
// scanner's (a test key's when test is set).
func (e *Env) Scanner(t testing.TB, org string, test bool) string {
	return e.Token(t, identity.Principal{OrganizerID: org, KeyID: "key_scan_" + org, KeyType: identity.Secret,
		Scopes: []string{"checkins:write"}, Test: test})
}

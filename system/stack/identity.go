package stack

import (
	"strings"

	"github.com/podiumhq/podium/libs/identity"
)

// signers are the services that sign identity tokens for their calls to others.
var signers = []string{identity.Gateway, identity.Checkout, identity.Registration, identity.Auth, identity.Webhooks}

// trusts lists, per service, the callers whose tokens it accepts: auth is called by the
// gateway and webhooks (an organization's contacts); the catalog by the gateway, checkout and
// registration; registration by the gateway, checkout and auth (the console's test-mode tools);
// checkout by the gateway and registration (the test-data wipe); webhooks by the gateway, auth
// (the console's Webhooks tab) and registration (the test-data wipe).
var trusts = map[string][]string{
	identity.Auth:         {identity.Gateway, identity.Webhooks},
	identity.Catalog:      {identity.Gateway, identity.Checkout, identity.Registration},
	identity.Registration: {identity.Gateway, identity.Checkout, identity.Auth},
	identity.Checkout:     {identity.Gateway, identity.Registration},
	identity.Webhooks:     {identity.Gateway, identity.Auth, identity.Registration},
}

// keyPair is a service's identity key pair as its settings hold them (base64).
type keyPair struct{ public, private string }

// identityEnv is the identity settings of service svc: its own private key when it signs, and
// the public keys of the callers it trusts.
func (s *Stack) identityEnv(svc string) []string {
	var env []string
	if k, ok := s.identityKeys[svc]; ok {
		env = append(env, "IDENTITY_PRIVATE_KEY="+k.private)
	}
	if callers, ok := trusts[svc]; ok {
		entries := make([]string, len(callers))
		for i, c := range callers {
			entries[i] = c + ":" + s.identityKeys[c].public
		}
		env = append(env, "IDENTITY_TRUSTED_KEYS="+strings.Join(entries, ","))
	}
	return env
}

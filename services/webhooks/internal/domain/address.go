package domain

import "net/netip"

// refusedPrefixes are the ranges no delivery may reach: private, shared, link-local (cloud
// metadata among them), unique-local, multicast, reserved and special-purpose addresses.
var refusedPrefixes = mustPrefixes(
	"0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12",
	"192.0.0.0/24", "192.168.0.0/16", "198.18.0.0/15", "224.0.0.0/4", "240.0.0.0/4",
	"::/128", "::1/128", "fc00::/7", "fe80::/10", "ff00::/8",
)

// loopbackPrefixes are the addresses AllowLoopback lets through.
var loopbackPrefixes = mustPrefixes("127.0.0.0/8", "::1/128")

// nat64 is the well-known NAT64 prefix; an address in it reaches the IPv4 address it embeds.
var nat64 = netip.MustParsePrefix("64:ff9b::/96")

// RefusedAddress reports whether a receiver at a may not be reached: an address in a refused
// range, also in its IPv4-mapped or NAT64 form. With allowLoopback, loopback addresses are
// allowed (only local runs and tests set it); no other private range ever is.
func RefusedAddress(a netip.Addr, allowLoopback bool) bool {
	a = a.WithZone("")
	if a.Is4In6() {
		a = a.Unmap()
	} else if nat64.Contains(a) {
		b := a.As16()
		a = netip.AddrFrom4([4]byte(b[12:]))
	}
	if !a.IsValid() {
		return true
	}
	if allowLoopback && inAny(a, loopbackPrefixes) {
		return false
	}
	return inAny(a, refusedPrefixes)
}

func inAny(a netip.Addr, prefixes []netip.Prefix) bool {
	for _, p := range prefixes {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

func mustPrefixes(s ...string) []netip.Prefix {
	out := make([]netip.Prefix, len(s))
	for i, p := range s {
		out[i] = netip.MustParsePrefix(p)
	}
	return out
}

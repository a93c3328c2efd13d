package identity

import "net/netip"

// ClientNetwork is the subject of every per-address limit for the client address addr: an IPv4
// address as it is, an IPv6 address as its /64 network, since one subscriber is routinely given
// a whole /64 (2^64 addresses). Anything that is not an address is returned unchanged.
func ClientNetwork(addr string) string {
	a, err := netip.ParseAddr(addr)
	if err != nil {
		return addr
	}
	a = a.Unmap()
	if a.Is4() {
		return a.String()
	}
	return netip.PrefixFrom(a.WithZone(""), 64).Masked().String()
}

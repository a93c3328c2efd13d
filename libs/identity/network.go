package identity

import "net/netip"

// ClientNetwork is the subject of every per-address limit for the client address addr: an IPv4
// address as it is, an IPv6 address as its /64 network, since one subscriber is routinely given
// a whole /64 (2^64 addresses). Anything that is not an address is returned unchanged.
func ClientNetwork(addr string) string { return ClientPrefix(addr, 64) }

// ClientPrefix is the network of the client address addr with an IPv6 prefix of bits: an IPv4
// address as it is, an IPv6 address as its /bits network (a /48 is one site's allocation, of
// 65,536 /64s). Anything that is not an address is returned unchanged.
func ClientPrefix(addr string, bits int) string {
	a, err := netip.ParseAddr(addr)
	if err != nil {
		return addr
	}
	a = a.Unmap()
	if a.Is4() {
		return a.String()
	}
	return netip.PrefixFrom(a.WithZone(""), bits).Masked().String()
}
